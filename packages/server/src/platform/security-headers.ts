import { createHash } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { THEME_BOOT_SCRIPT } from '@berth/contracts/theme';
import type { FastifyInstance, FastifyReply } from 'fastify';
import helmet from 'helmet';

/** A year, without includeSubDomains: Berth must not decide for its operator's other hosts. */
const HSTS_VALUE = 'max-age=31536000';
/** The one inline script the web app's pages carry, by its hash (allowThemeScript). */
const THEME_SCRIPT_HASH = createHash('sha256').update(THEME_BOOT_SCRIPT).digest('base64');
const THEME_SCRIPT_SOURCE = `'sha256-${THEME_SCRIPT_HASH}'`;
/** What a Host header may look like before it is written into the CSP (no `;`, no spaces). */
const SAFE_HOST = /^[a-z0-9.-]+(:\d{1,5})?$|^\[[0-9a-f:.]+\](:\d{1,5})?$/i;

/**
 * The live channel's own ws:/wss: address. CSP3 lets 'self' cover it already; older Safari
 * does not, so it is listed explicitly when the Host header is plainly a host.
 */
function liveChannelSource(req: IncomingMessage, _res: ServerResponse): string {
  const host = req.headers.host ?? '';
  return SAFE_HOST.test(host) ? `ws://${host} wss://${host}` : "'self'";
}

/**
 * Security headers on every answer (API, web app, errors, 404s). The CSP allows only Berth's
 * own files (the web app's pages add one inline script, below). Styles: the bundle's CSS is
 * a file, but sonner (toasts) and Radix's scroll lock insert <style> elements at run time, so
 * style elements need 'unsafe-inline'; style attributes in markup are not used (React sets
 * styles through the CSSOM, which CSP does not govern) and stay forbidden.
 */
export function registerSecurityHeaders(app: FastifyInstance): void {
  // helmet itself, built once: @fastify/helmet built it anew for every request, parsing the
  // whole policy each time (a sixth of a small API answer's server time, bench/api-cost).
  const setHeaders = helmet({
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'"],
        styleSrc: ["'self'"],
        styleSrcElem: ["'self'", "'unsafe-inline'"],
        styleSrcAttr: ["'none'"],
        imgSrc: ["'self'", 'data:'],
        fontSrc: ["'self'"],
        connectSrc: ["'self'", liveChannelSource],
        objectSrc: ["'none'"],
        baseUri: ["'none'"],
        formAction: ["'self'"],
        frameAncestors: ["'none'"],
        // No upgrade-insecure-requests: Berth is often served over plain http on a LAN.
      },
    },
    frameguard: { action: 'deny' },
    referrerPolicy: { policy: 'no-referrer' },
    // HSTS only means something over https; sent below when the request came that way.
    strictTransportSecurity: false,
  });
  app.addHook('onRequest', (request, reply, done) => {
    if (request.protocol === 'https') void reply.header('strict-transport-security', HSTS_VALUE);
    setHeaders(request.raw, reply.raw, (err?: unknown) => {
      done(err instanceof Error ? err : undefined);
    });
  });
}

/**
 * The API reference page (/api/docs) only: scalar's Vue components write style attributes
 * (setAttribute('style')), which the policy forbids everywhere else. Scripts there are still
 * Berth's own files alone; a style attribute cannot run code.
 */
export function allowStyleAttributes(reply: FastifyReply): void {
  const policy = reply.getHeader('content-security-policy');
  if (typeof policy !== 'string') return;
  void reply.header(
    'content-security-policy',
    policy.replace("style-src-attr 'none'", "style-src-attr 'unsafe-inline'"),
  );
}

/**
 * The web app's pages only: they carry one inline script, which sets the colour theme before
 * the first paint (a file would hold the login page's paint for another request). It is
 * allowed by its hash; every other answer keeps `script-src 'self'`.
 */
export function allowThemeScript(reply: FastifyReply): void {
  const policy = reply.getHeader('content-security-policy');
  if (typeof policy !== 'string' || policy.includes(THEME_SCRIPT_SOURCE)) return;
  void reply.header(
    'content-security-policy',
    policy.replace("script-src 'self'", `script-src 'self' ${THEME_SCRIPT_SOURCE}`),
  );
}
