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
  if (err instanceof Error && (err.name === 'TimeoutError' || err.name === 'AbortError'))
    return `No answer within ${Math.round(timeoutMs / 1000)} s`;
  const cause =
    err instanceof Error
      ? (err.cause as { code?: string; message?: string } | undefined)
      : undefined;
  if (cause?.code !== undefined) return `Could not connect: ${cause.code}`;
  if (cause?.message !== undefined) return `Could not connect: ${cause.message}`;
  return err instanceof Error ? err.message : String(err);
}

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
  let res: Response;
  try {
    res = await fetch(url, {
      method: 'POST',
      headers: h,
      body: payload,
      redirect: 'error',
      signal: AbortSignal.timeout(ctx.timeoutMs),
    });
  } catch (err) {
    throw new DeliveryError(networkReason(err, ctx.timeoutMs));
  }
  let text = '';
  try {
    text = (await res.text()).slice(0, 300);
  } catch {
    // The status is what counts; a body cut short changes nothing.
  }
  if (res.ok) return;
  const retryAfter = retryAfterMs(res.headers.get('retry-after'));
  throw new DeliveryError(`HTTP ${res.status}${text === '' ? '' : `: ${text}`}`, {
    permanent: PERMANENT.has(res.status),
    ...(retryAfter === undefined ? {} : { retryAfterMs: retryAfter }),
  });
}

/** A base URL without its trailing slashes. */
export const trimBase = (url: string): string => url.replace(/\/+$/, '');
