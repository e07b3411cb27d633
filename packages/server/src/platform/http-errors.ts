/** An error whose message is safe to show: answered as `{detail}` with its status. */
export class HttpError extends Error {
  constructor(
    readonly statusCode: number,
    message: string,
    /** Headers the answer carries besides the body (Retry-After on a 429). */
    readonly headers: Readonly<Record<string, string>> = {},
    /** A machine-readable reason beside `detail`, for clients that act on it (additive field). */
    readonly clientCode?: string,
  ) {
    super(message);
    this.name = 'HttpError';
  }
}

export const badRequest = (detail: string) => new HttpError(400, detail);
export const unauthorized = (detail = 'Not authenticated') => new HttpError(401, detail);
export const forbidden = (detail: string) => new HttpError(403, detail);
export const notFound = (detail: string) => new HttpError(404, detail);
export const conflict = (detail: string) => new HttpError(409, detail);
/** A 429; with `retryAfterMs`, a Retry-After in whole seconds (at least 1) for clients that wait. */
export const tooManyRequests = (detail: string, retryAfterMs?: number) =>
  new HttpError(
    429,
    detail,
    retryAfterMs === undefined
      ? {}
      : { 'retry-after': String(Math.max(1, Math.ceil(retryAfterMs / 1000))) },
  );
