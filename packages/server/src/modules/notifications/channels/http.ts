import { HttpTimeoutError, httpRequest, type HttpAnswer } from '../../../platform/http-request.js';
import { DeliveryError, type DeliveryContext } from './driver.js';

/** 4xx answers that retrying cannot change (the request or its credentials are wrong). */
const PERMANENT = new Set([400, 401, 403, 404, 405, 410, 413, 422]);

function retryAfterMs(header: string | null): number | undefined {
  if (header === null) return undefined;
  const seconds = Number(header);
  if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
  const at = Date.parse(header);
  return Number.isNaN(at) ? undefined : Math.max(0, at - Date.now());
}

/** Why a request never got an answer, in words an operator can act on. */
export function networkReason(err: unknown, timeoutMs: number): string {
  if (err instanceof HttpTimeoutError) return `No answer within ${Math.round(timeoutMs / 1000)} s`;
  const e = err as { code?: unknown; message?: unknown };
  if (typeof e.code === 'string') return `Could not connect: ${e.code}`;
  if (typeof e.message === 'string') return `Could not connect: ${e.message}`;
  return String(err);
}

/** Enough of an answer to keep its first 300 characters. */
const KEEP_BYTES = 1200;
/** At most this much of an answer is read before the socket closes. */
const READ_CAP_BYTES = 64 * 1024;

/**
 * POSTs a JSON or form body; resolves on 2xx, throws a DeliveryError otherwise.
 * The service's answer is read (at most 300 characters kept for the error).
 */
export async function post(
  url: string,
  body: { json: unknown } | { form: Record<string, string> } | { text: string },
  ctx: DeliveryContext,
  headers: Record<string, string> = {},
): Promise<void> {
  const h: Record<string, string> = { 'user-agent': ctx.product, ...headers };
  let payload: string;
  if ('json' in body) {
    h['content-type'] = 'application/json';
    payload = JSON.stringify(body.json);
  } else if ('form' in body) {
    h['content-type'] = 'application/x-www-form-urlencoded';
    payload = new URLSearchParams(body.form).toString();
  } else {
    h['content-type'] ??= 'text/plain; charset=utf-8';
    payload = body.text;
  }
  let res: HttpAnswer;
  try {
    res = await httpRequest(new URL(url), {
      method: 'POST',
      headers: h,
      body: payload,
      deadline: performance.now() + ctx.timeoutMs,
      readCapBytes: READ_CAP_BYTES,
      keepBytes: KEEP_BYTES,
    });
    // Services answer where they are; a redirect is never followed with the message.
    if (res.statusCode >= 300 && res.statusCode < 400) throw new Error('unexpected redirect');
  } catch (err) {
    throw new DeliveryError(networkReason(err, ctx.timeoutMs));
  }
  // The status is what counts; a body cut short changes nothing.
  const text = (await res.body).toString('utf8').slice(0, 300);
  if (res.statusCode >= 200 && res.statusCode < 300) return;
  const retryAfter = retryAfterMs(res.headers['retry-after'] ?? null);
  throw new DeliveryError(`HTTP ${res.statusCode}${text === '' ? '' : `: ${text}`}`, {
    permanent: PERMANENT.has(res.statusCode),
    ...(retryAfter === undefined ? {} : { retryAfterMs: retryAfter }),
  });
}

/** A base URL without its trailing slashes. */
export const trimBase = (url: string): string => url.replace(/\/+$/, '');
