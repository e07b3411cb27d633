/**
 * Polls `probe` until it returns a value other than undefined/false, or fails after `timeoutMs`
 * (20 s unless told: engines list and inspect every container before they count as online).
 */
export async function waitFor<T>(
  what: string,
  probe: () => T | undefined | false | Promise<T | undefined | false>,
  timeoutMs = 20_000,
  everyMs = 50,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last: Error | undefined;
  while (Date.now() < deadline) {
    try {
      const value = await probe();
      if (value !== undefined && value !== false) return value;
    } catch (err) {
      last = err instanceof Error ? err : new Error(String(err));
    }
    await new Promise((r) => setTimeout(r, everyMs));
  }
  throw new Error(
    `Timed out after ${timeoutMs} ms waiting for ${what}${last ? `: ${last.message}` : ''}`,
  );
}
