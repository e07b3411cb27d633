import type { FastifyInstance, FastifyRequest } from 'fastify';
import { forbidden } from './http-errors.js';

const STATE_CHANGING = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/** The answer to a request a foreign site made a browser send. */
export const CROSS_ORIGIN_DETAIL = 'Cross-origin request refused';

/**
 * Refuses cross-site state-changing requests and WebSocket upgrades before routing, auth or
 * body parsing. The cookie's SameSite=Strict is the first line; this one also holds for
 * same-site hosts (another port, a sibling subdomain) and older browsers.
 */
export function registerOriginCheck(
  app: FastifyInstance,
  allowedOrigins: readonly string[],
  /**
   * Requests that carry no ambient credential (an API key in Authorization, which no foreign
   * page can make a browser send without a CORS preflight Berth never grants): not checked.
   */
  carriesOwnCredential: (request: FastifyRequest) => boolean = () => false,
) {
  const extra = new Set(allowedOrigins);
  app.addHook('onRequest', async (request, reply) => {
    if (!needsCheck(request) || carriesOwnCredential(request)) return;
    if (isSameOriginRequest(request, extra)) return;
    if (isUpgrade(request)) {
      // The 403 is written to the raw upgrade socket, which no HTTP server tracks: end it here.
      reply.raw.once('finish', () => request.raw.socket.destroy());
    }
    throw forbidden(CROSS_ORIGIN_DETAIL);
  });
}

// Upgrades are GETs, but a socket carries the signed-in session just like a POST.
const needsCheck = (request: FastifyRequest) =>
  STATE_CHANGING.has(request.method) || isUpgrade(request);

const isUpgrade = (request: FastifyRequest) =>
  request.headers.upgrade?.toLowerCase() === 'websocket';

/**
 * True when the browser says the request comes from Berth's own pages (or a trusted proxy
 * origin). Without Origin and Sec-Fetch-Site it is not a browser's cross-site request
 * (curl, scripts), which carries no ambient cookie of a victim anyway.
 */
export function isSameOriginRequest(request: FastifyRequest, extra: ReadonlySet<string>): boolean {
  const site = headerOf(request, 'sec-fetch-site');
  const origin = headerOf(request, 'origin');
  if (site === 'cross-site') return false;
  if (origin === undefined) return site !== 'same-site';
  const claimed = normalise(origin);
  if (claimed === undefined) return false; // `null` (sandboxed frames) or garbage
  return claimed === ownOrigin(request) || extra.has(claimed);
}

function headerOf(request: FastifyRequest, name: string): string | undefined {
  const value = request.headers[name];
  return typeof value === 'string' ? value.trim().toLowerCase() : undefined;
}

/** This request's own origin as a browser spells it, from Host (or X-Forwarded-* when trusted). */
function ownOrigin(request: FastifyRequest): string | undefined {
  return normalise(`${request.protocol}://${request.host}`);
}

function normalise(origin: string): string | undefined {
  try {
    const url = new URL(origin);
    return url.origin === 'null' ? undefined : url.origin;
  } catch {
    return undefined;
  }
}
