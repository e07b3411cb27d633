import { useCallback, useEffect, useRef } from 'react';

/**
 * A function that calls `fn` once, `delayMs` after its last call (layout and sort saves).
 * A pending call is made at unmount so a quick navigation does not lose the change.
 */
export function useDebouncedCallback<A extends unknown[]>(
  fn: (...args: A) => void,
  delayMs: number,
): (...args: A) => void {
  const latest = useRef(fn);
  const pending = useRef<{ timer: ReturnType<typeof setTimeout>; args: A } | null>(null);
  useEffect(() => {
    latest.current = fn;
  });
  useEffect(
    () => () => {
      if (pending.current !== null) {
        clearTimeout(pending.current.timer);
        latest.current(...pending.current.args);
      }
    },
    [],
  );
  return useCallback(
    (...args: A) => {
      if (pending.current !== null) clearTimeout(pending.current.timer);
      const timer = setTimeout(() => {
        pending.current = null;
        latest.current(...args);
      }, delayMs);
      pending.current = { timer, args };
    },
    [delayMs],
  );
}
