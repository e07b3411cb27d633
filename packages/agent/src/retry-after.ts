/**
 * The longest a Retry-After is waited: Berth's own throttle asks for at most its one-minute
 * window, and a proxy asking for hours would leave the host offline that long.
 */
export const MAX_RETRY_AFTER_MS = 5 * 60_000;

/**
 * How long to wait before asking again after an answer carrying `Retry-After` (seconds, or an
 * HTTP date): the time asked for, capped, plus up to a quarter more, so agents refused
 * together (behind one NAT) do not all come back in the same instant. Null when the header
 * is missing or says nothing usable: the caller's own backoff applies.
 */
export function retryAfterDelayMs(
  header: string | string[] | undefined,
  now = Date.now(),
  random = Math.random,
): number | null {
  const value = (Array.isArray(header) ? header[0] : header)?.trim();
  if (value === undefined || value === '') return null;
  const askedMs = /^\d+$/.test(value) ? Number(value) * 1000 : Date.parse(value) - now;
  if (!Number.isFinite(askedMs) || askedMs <= 0) return null;
  const base = Math.min(askedMs, MAX_RETRY_AFTER_MS);
  return Math.round(base + (random() * base) / 4);
}
