import type { z } from 'zod';
import { noteReached } from './last-reached';
import { safeParseWith } from './schema-check';

/** An API answer with an error status; `message` is the body's detail, its text or the status. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    /** The answer's machine-readable `code` (e.g. `second_factor_required`), if it has one. */
    readonly code?: string,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

/**
 * An answer that is not JSON or not the shape the contracts describe (a proxy's error page, a
 * server of another version). Screens show this short message; the details go to the console.
 */
export class UnexpectedAnswerError extends Error {
  constructor(readonly path: string) {
    super('Unexpected response from the server');
    this.name = 'UnexpectedAnswerError';
  }
}

/** The server could not be reached at all. */
export class NetworkError extends Error {
  constructor() {
    super('Connection error. Please check if the backend is running.');
    this.name = 'NetworkError';
  }
}

type Params = Record<string, string | number | boolean | readonly (string | number)[] | undefined>;

interface RequestOptions {
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  body?: unknown;
  params?: Params;
}

function queryString(params: Params | undefined): string {
  if (params === undefined) return '';
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) {
    if (value === undefined) continue;
    if (Array.isArray(value))
      for (const v of value as (string | number)[]) search.append(key, String(v));
    else search.append(key, String(value));
  }
  const text = search.toString();
  return text === '' ? '' : `?${text}`;
}

/** An error answer as an ApiError, with its body's `code` when it has one. */
async function errorOf(res: Response): Promise<ApiError> {
  const text = await res.text();
  const code = codeOf(text);
  return new ApiError(res.status, messageOf(text, res.statusText), code);
}

function codeOf(text: string): string | undefined {
  try {
    const body = JSON.parse(text) as unknown;
    if (typeof body === 'object' && body !== null && 'code' in body) {
      return typeof body.code === 'string' ? body.code : undefined;
    }
  } catch {
    // not JSON
  }
  return undefined;
}

/** The error message: the JSON body's detail, else the plain text, else the status text. */
function messageOf(text: string, statusText: string): string {
  try {
    // { detail: string } (the contracts' errorBodySchema), read by hand: the entry has no zod.
    const body = JSON.parse(text) as unknown;
    if (
      typeof body === 'object' &&
      body !== null &&
      'detail' in body &&
      typeof body.detail === 'string'
    )
      return body.detail;
  } catch {
    // not JSON
  }
  return text.trim() !== '' ? text : statusText;
}

/** What a proxy in front of Berth answers when Berth itself is down. */
export const GATEWAY_DOWN = new Set([502, 503, 504]);
const JSON_HEADERS = { 'Content-Type': 'application/json', Accept: 'application/json' };
/** A preloaded answer is used this long after its request started, and once. */
const PRELOAD_FRESH_MS = 10_000;
const preloaded = new Map<string, { at: number; response: Promise<Response> }>();

/**
 * Starts a GET of `/api{path}` now (at boot, beside the session check), for the first `api`
 * call of the same path to take instead of asking again. Unused answers simply expire.
 */
export function preloadGet(path: string): void {
  const response = fetch(`/api${path}`, { credentials: 'include', headers: JSON_HEADERS });
  response.catch(() => undefined); // a failure is the taker's to see
  preloaded.set(path, { at: Date.now(), response });
}

function takePreloaded(url: string): Promise<Response> | undefined {
  const hit = preloaded.get(url);
  if (hit === undefined) return undefined;
  preloaded.delete(url);
  return Date.now() - hit.at < PRELOAD_FRESH_MS ? hit.response : undefined;
}

/**
 * Calls `/api{path}` with cookies and JSON, and parses the answer with a contracts schema.
 * A 204 or an empty answer reads as `{}`. The schema may still be loading (the first screen's
 * code imports contracts lazily: lib/session.ts); the request does not wait for it.
 */
export async function api<S extends z.ZodType>(
  path: string,
  schema: S | PromiseLike<S>,
  options: RequestOptions = {},
): Promise<z.output<S>> {
  let res: Response;
  try {
    const url = `${path}${queryString(options.params)}`;
    const method = options.method ?? 'GET';
    res = await ((method === 'GET' ? takePreloaded(url) : undefined) ??
      fetch(`/api${url}`, {
        method,
        credentials: 'include',
        headers: JSON_HEADERS,
        ...(options.body === undefined ? {} : { body: JSON.stringify(options.body) }),
      }));
  } catch {
    throw new NetworkError();
  }
  // A proxy's gateway error is not Berth answering.
  if (!GATEWAY_DOWN.has(res.status)) noteReached();
  if (!res.ok) throw await errorOf(res);
  return readAnswer(path, await res.text(), await schema);
}

function readAnswer<S extends z.ZodType>(path: string, text: string, schema: S): z.output<S> {
  let data: unknown = {};
  try {
    if (text.trim() !== '') data = JSON.parse(text);
  } catch (err) {
    console.error(`/api${path}: the answer is not JSON`, err);
    throw new UnexpectedAnswerError(path);
  }
  const result = safeParseWith(schema, data);
  if (result.success) return result.data;
  console.error(`/api${path}: the answer does not match its schema`, result.error.issues);
  throw new UnexpectedAnswerError(path);
}

/** The message to show for any error, 'Unknown error' when it has none. */
export function errorText(err: unknown, fallback = 'Unknown error'): string {
  return err instanceof Error && err.message !== '' ? err.message : fallback;
}
