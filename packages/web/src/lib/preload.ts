import type { QueryClient } from '@tanstack/react-query';
import { preloadGet } from './api-client';
import { meQueryOptions } from './session';

/** What a screen reads first, by path: asked for at boot, beside the session check. */
const FIRST_READS: Record<string, string[]> = {
  '/': ['/v2/user/preferences', '/hosts', '/containers'],
  '/hosts': ['/v2/user/preferences', '/hosts'],
  '/containers': ['/v2/user/preferences', '/containers'],
};
const DEFAULT_READS = ['/v2/user/preferences'];

/**
 * At boot, before any other code of the app runs: the session check, and on any screen but
 * /login the landing screen's data with it rather than after it. A signed-in reload waits one
 * round trip, not three in a row. Signed out, the data answers 401 and nobody takes them.
 */
export function startBootReads(path: string): void {
  preloadGet('/v2/auth/me');
  if (path === '/login') return;
  for (const read of FIRST_READS[path] ?? DEFAULT_READS) preloadGet(read);
}

/** Starts the session query (it takes the answer asked for at boot). */
export function startSessionQuery(queryClient: QueryClient): void {
  queryClient.query(meQueryOptions()).catch(() => undefined); // the screens ask again
}
