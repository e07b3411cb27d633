import { useQueryClient, type QueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';

/** The longest the live socket waits for the first screen before it connects anyway. */
const MAX_WAIT_MS = 3000;

/**
 * Calls `ready` once the first screen is drawn: the page has loaded, no query is fetching,
 * and the browser is idle. The live socket waits for this because its first message, the
 * full state of every container, costs the server (and the browser) most in the moment
 * the first screen's own data and scripts are on their way; the data it brings is in those
 * answers already. Returns a function that cancels the wait.
 */
export function whenFirstScreenSettled(queryClient: QueryClient, ready: () => void): () => void {
  let done = false;
  const cleanups: (() => void)[] = [];
  const finish = () => {
    if (done) return;
    done = true;
    for (const cleanup of cleanups) cleanup();
    ready();
  };
  const giveUp = setTimeout(finish, MAX_WAIT_MS);
  cleanups.push(() => clearTimeout(giveUp));

  const whenIdle = () => {
    if (typeof requestIdleCallback !== 'function') {
      finish();
      return;
    }
    const id = requestIdleCallback(finish, { timeout: 500 });
    cleanups.push(() => cancelIdleCallback(id));
  };
  const whenQuiet = () => {
    if (queryClient.isFetching() === 0) {
      whenIdle();
      return;
    }
    const unsubscribe = queryClient.getQueryCache().subscribe(() => {
      if (queryClient.isFetching() !== 0) return;
      unsubscribe();
      whenIdle();
    });
    cleanups.push(unsubscribe);
  };
  if (document.readyState === 'complete') whenQuiet();
  else {
    window.addEventListener('load', whenQuiet, { once: true });
    cleanups.push(() => window.removeEventListener('load', whenQuiet));
  }
  return () => {
    done = true;
    for (const cleanup of cleanups) cleanup();
  };
}

/** Set once the app's first screen has settled; screens and parts mounted later need not wait. */
let settledOnce = false;

/**
 * True once the first screen is drawn (`whenFirstScreenSettled`), and at once after that. Reads
 * that the first screen does not show (the version, the upgrade notice, the timezone check)
 * wait for it: asked for in the same commit, they cost the first render ~15 ms of requests
 * and, answering before it, their parsing.
 */
export function useFirstScreenSettled(): boolean {
  const queryClient = useQueryClient();
  const [settled, setSettled] = useState(settledOnce);
  useEffect(() => {
    if (settled) return undefined;
    return whenFirstScreenSettled(queryClient, () => {
      settledOnce = true;
      setSettled(true);
    });
  }, [queryClient, settled]);
  return settled;
}
