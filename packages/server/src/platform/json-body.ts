import type { FastifyInstance } from 'fastify';

export const BODY_LIMIT_BYTES = 1024 * 1024;

/**
 * The UI sends `Content-Type: application/json` even on calls without a body (logout,
 * container actions), so an empty JSON body means "no body" instead of an error.
 * Every other content type is refused with 415.
 * Bodies with __proto__ or constructor.prototype are refused (Fastify's safe parser).
 */
export function registerJsonBodyParser(app: FastifyInstance): void {
  const defaultParser = app.getDefaultJsonParser('error', 'error');
  // The API speaks JSON only: any other body is a 415, not a string to validate.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser(
    'application/json',
    { parseAs: 'string', bodyLimit: BODY_LIMIT_BYTES },
    (request, body, done) => {
      const text = typeof body === 'string' ? body : body.toString('utf8');
      if (text.trim() === '') {
        done(null, undefined);
        return;
      }
      // The default parser answers through `done`; a rejection it returns is handed on too.
      Promise.resolve(defaultParser(request, text, done)).catch((err: unknown) => {
        done(err instanceof Error ? err : new Error(String(err)), undefined);
      });
    },
  );
}
