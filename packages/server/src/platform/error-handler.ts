import type { FastifyError, FastifyInstance } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { z } from 'zod';

type ValidationIssue = { instancePath: string; message?: string | undefined };

/** `"username: Required"`: the last path segment names the field, as the UI expects. */
export function formatValidationIssue(issue: ValidationIssue): string {
  // `/severity/0` names the field `severity`: list positions are not field names.
  const field = issue.instancePath
    .split('/')
    .filter((s) => s !== '' && !/^\d+$/.test(s))
    .at(-1);
  const message = issue.message ?? 'Invalid value';
  return field === undefined ? message : `${field}: ${message}`;
}

/** Zod's wording for a missing field is long; the API says "Required" like the spec does. */
z.config({
  customError: (issue) =>
    issue.code === 'invalid_type' && issue.input === undefined ? 'Required' : undefined,
});

/**
 * One error answer for the whole API: `{detail}`. Client errors keep their message,
 * validation names the field, and a 5xx never leaks internals.
 */
export function registerErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    if (hasZodFastifySchemaValidationErrors(error)) {
      const first = error.validation[0];
      const detail = first === undefined ? 'Invalid request' : formatValidationIssue(first);
      return reply.code(400).send({ detail });
    }
    if (isDatabaseBusy(error)) {
      // Another writer held the lock past busy_timeout: a retry will do, nothing is broken.
      request.log.warn({ err: error }, 'database busy');
      return reply.code(503).send({ detail: 'Database is busy; try again' });
    }
    const status = error.statusCode ?? 500;
    if (status >= 400 && status < 500) {
      return reply.code(status).send({ detail: clientMessage(error) });
    }
    request.log.error({ err: error }, 'request failed');
    return reply.code(500).send({ detail: 'Internal server error' });
  });
}

/** better-sqlite3's SQLITE_BUSY (and its extended codes such as SQLITE_BUSY_SNAPSHOT). */
function isDatabaseBusy(error: { code?: unknown }): boolean {
  return typeof error.code === 'string' && error.code.startsWith('SQLITE_BUSY');
}

function clientMessage(error: FastifyError): string {
  switch (error.code) {
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return 'Request body is too large (limit 1 MB)';
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return 'Unsupported content type; send application/json';
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
      return 'Malformed JSON body';
    default:
      return error.message;
  }
}
