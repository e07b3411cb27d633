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
 * Starts the session check at boot, and on any screen but /login the landing screen's data
 * with it rather than after it: a signed-in reload waits one round trip, not three in a row.
 * Signed out, the data answers 401 and nobody takes them.
 */
export function startPreload(queryClient: QueryClient, path: string): void {
  queryClient.query(meQueryOptions()).catch(() => undefined); // the screens ask again
  if (path === '/login') return;
  for (const read of FIRST_READS[path] ?? DEFAULT_READS) preloadGet(read);
}
