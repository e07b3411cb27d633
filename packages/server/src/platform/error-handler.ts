import type { FastifyError, FastifyInstance } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { fieldDetail, fieldMessage } from './field-names.js';
import { HttpError } from './http-errors.js';

type ValidationIssue = { instancePath: string; message?: string | undefined };

/** A validation problem as the UI shows it: the field named in words ("Cooldown must be ..."). */
export function formatValidationIssue(issue: ValidationIssue): string {
  return fieldMessage(issue.instancePath.split('/'), issue.message ?? 'is not valid');
}

/**
 * Zod's own wording ("Invalid input: expected number, received string") reads as a
 * predicate of the field instead, "must be a number", which the answer puts after the
 * field's name. Schemas with a message of their own keep it.
 */
z.config({ customError: predicateOf });

function predicateOf(issue: z.core.$ZodRawIssue): string | undefined {
  switch (issue.code) {
    case 'invalid_type':
      return issue.input === undefined ? 'Required' : (TYPE_WORDS[issue.expected] ?? undefined);
    case 'too_small':
      return boundPredicate('least', issue.origin, issue.minimum, issue.inclusive);
    case 'too_big':
      return boundPredicate('most', issue.origin, issue.maximum, issue.inclusive);
    case 'invalid_value':
      return issue.values.length === 1
        ? `must be ${String(issue.values[0])}`
        : `must be one of ${issue.values.map(String).join(', ')}`;
    case 'invalid_format':
      return FORMAT_WORDS[issue.format] ?? 'is not in the expected format';
    case 'not_multiple_of':
      return `must be a multiple of ${String(issue.divisor)}`;
    case 'unrecognized_keys':
      return `Unknown field${issue.keys.length === 1 ? '' : 's'}: ${issue.keys.join(', ')}`;
    case 'invalid_union':
      return 'is not valid';
    default:
      return undefined;
  }
}

const TYPE_WORDS: Partial<Record<string, string>> = {
  number: 'must be a number',
  int: 'must be a whole number',
  string: 'must be text',
  boolean: 'must be true or false',
  array: 'must be a list',
  object: 'must be an object',
  record: 'must be an object',
  date: 'must be a date',
};
const FORMAT_WORDS: Partial<Record<string, string>> = {
  url: 'must be a URL',
  email: 'must be an email address',
  datetime: 'must be a date and time (ISO 8601)',
  date: 'must be a date (YYYY-MM-DD)',
  uuid: 'must be a UUID',
};

function boundPredicate(
  side: 'least' | 'most',
  origin: string,
  bound: number | bigint | Date,
  inclusive: boolean | undefined,
): string {
  const n = bound instanceof Date ? bound.toISOString() : String(bound);
  if (origin === 'string')
    return side === 'least' && n === '1'
      ? 'must not be empty'
      : `must be at ${side} ${n} characters`;
  if (origin === 'array' || origin === 'set')
    return `must have at ${side} ${n} item${n === '1' ? '' : 's'}`;
  if (inclusive === false) return `must be ${side === 'least' ? 'more' : 'less'} than ${n}`;
  return `must be at ${side} ${n}`;
}

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
      const detail = fieldDetail(clientMessage(error));
      if (error instanceof HttpError) {
        reply.headers(error.headers);
        const code = error.clientCode;
        if (code !== undefined) return reply.code(status).send({ detail, code });
      }
      return reply.code(status).send({ detail });
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
