const KEY = 'berth:last-reached';
/** Written at most this often: the live channel's pongs and every API answer call in. */
const WRITE_EVERY_MS = 15_000;

let lastWrite = 0;

/**
 * Remembers that Berth answered just now, for the offline screen's "last reached" time
 * (app/unreachable.tsx), kept in this browser across reloads and app starts.
 */
export function noteReached(now = Date.now()): void {
  if (now - lastWrite < WRITE_EVERY_MS) return;
  lastWrite = now;
  try {
    localStorage.setItem(KEY, new Date(now).toISOString());
  } catch {
    // storage full or refused (a private window): the screen then says it does not know
  }
}

/** When this browser last heard from Berth (ISO), or null. */
export function lastReached(): string | null {
  try {
    const value = localStorage.getItem(KEY);
    return value !== null && !Number.isNaN(Date.parse(value)) ? value : null;
  } catch {
    return null;
  }
}
