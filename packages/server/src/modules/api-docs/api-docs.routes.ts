import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import type { FastifyInstance } from 'fastify';
import { acceptedEncoding, SharedJsonBody } from '../../platform/compression.js';
import { allowStyleAttributes } from '../../platform/security-headers.js';
import type { OpenApi } from './openapi.js';
import { loadScalarScript } from './scalar-script.js';

const brotli = promisify(brotliCompress);
const gzipped = promisify(gzip);

export const DOCS_SCRIPT_PATH = '/api/docs/scalar.js';

/**
 * Scalar's settings for an offline page under Berth's CSP: no fonts from its CDN, no
 * telemetry, no AI agent or request proxy of scalar.com; "Try it" calls go to Berth itself.
 * Its authentication panel opens on the bearer API key, empty; the session cookie is the
 * browser's own (HttpOnly), so its field is left empty too.
 */
const SCALAR_CONFIGURATION = {
  withDefaultFonts: false,
  telemetry: false,
  agent: { disabled: true },
  showDeveloperTools: 'never',
  hideClientButton: false,
  documentDownloadType: 'json',
  authentication: {
    // The signed-in reader's own cookie: "Try it" works at once. An empty bearer key preferred
    // instead would be sent as a bad key, refused and counted against the address.
    preferredSecurityScheme: 'session',
    securitySchemes: { apiKey: { token: '' }, session: { value: '' } },
  },
};

/**
 * Scalar shows a made-up secret (base64 of a meme) as the placeholder of every API-key
 * field, here the session cookie's, which reads like a real value; no setting removes it.
 */
const FAKE_SECRET_PLACEHOLDER = 'placeholder:`QUxMIFlPVVIgQkFTRSBBUkUgQkVMT05HIFRPIFVT`';

const escapeAttribute = (text: string) =>
  text.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');

/**
 * The page has no inline script (the CSP allows none): scalar's bundle reads the document's
 * URL and its settings from the `#api-reference` element's attributes.
 */
const PAGE = `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <meta name="viewport" content="width=device-width, initial-scale=1" />
    <title>Berth API</title>
  </head>
  <body>
    <div id="api-reference" data-url="/api/openapi.json" data-configuration="${escapeAttribute(
      JSON.stringify(SCALAR_CONFIGURATION),
    )}"></div>
    <script src="${DOCS_SCRIPT_PATH}"></script>
  </body>
</html>
`;

/**
 * The zod bundled in scalar probes `Function('')` for its fast parsers; under a CSP without
 * 'unsafe-eval' that is reported as a violation. Its global config (shared by every zod 4 on a
 * page) turns the probe off, as Berth's own browser-csp.ts does for the web app.
 */
const SKIP_EVAL_PROBE =
  'globalThis.__zod_globalConfig = Object.assign(globalThis.__zod_globalConfig || {}, { jitless: true });';

interface ScriptBodies {
  raw: string;
  br: Promise<Buffer> | null;
  gzip: Promise<Buffer> | null;
}

/**
 * GET /api/openapi.json and the interactive reference at /api/docs. Registered among the
 * signed-in routes, so both need a session or a key (GET: `read`); the page's routes are
 * hidden from the document they show.
 */
export function apiDocsRoutes(app: FastifyInstance, openApi: OpenApi): void {
  const documentBody = new SharedJsonBody();
  let documentText: string | null = null;
  app.get('/openapi.json', async (request, reply) => {
    documentText ??= JSON.stringify(await openApi.document());
    return documentBody.send(request, reply, documentText);
  });

  app.get('/docs', { schema: { hide: true } }, (_request, reply) => {
    allowStyleAttributes(reply);
    return reply.type('text/html; charset=utf-8').header('cache-control', 'no-store').send(PAGE);
  });

  let script: Promise<ScriptBodies> | null = null;
  app.get('/docs/scalar.js', { schema: { hide: true } }, async (request, reply) => {
    script ??= loadScalarScript().then((bundle) => ({
      raw: `${SKIP_EVAL_PROBE}\n${bundle.replaceAll(FAKE_SECRET_PLACEHOLDER, 'placeholder:``')}`,
      br: null,
      gzip: null,
    }));
    // A failed load is tried again on the next visit.
    const bodies = await script.catch((err: unknown) => {
      script = null;
      throw err;
    });
    void reply
      .type('application/javascript; charset=utf-8')
      .header('cache-control', 'private, max-age=3600')
      .header('vary', 'accept-encoding');
    const encoding = acceptedEncoding(request);
    if (encoding === null) return reply.send(bodies.raw);
    // Compressed once per encoding, on the thread pool, and kept with the text.
    const body = await (encoding === 'br'
      ? (bodies.br ??= brotli(bodies.raw, { params: { [constants.BROTLI_PARAM_QUALITY]: 5 } }))
      : (bodies.gzip ??= gzipped(bodies.raw, { level: 6 })));
    return reply.header('content-encoding', encoding).send(body);
  });
}
