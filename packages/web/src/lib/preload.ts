import type { QueryClient } from '@tanstack/react-query';
import { preloadGet } from './api-client';
import { meQueryOptions } from './session';

/**
 * What a screen reads first besides the session and the preferences (every screen's). The
 * dashboard's KPI tiles count open alerts and available updates: read with the rest, they are
 * right in the first render rather than 0 until their answers come in.
 */
const SCREEN_READS: Record<string, string[]> = {
  '/': ['/hosts', '/containers', '/alerts/stats/', '/updates/summary'],
  '/hosts': ['/hosts'],
  '/containers': ['/containers'],
};

/** The screen the app was opened on, until its first render has taken its boot reads. */
let bootScreen: string | null = null;

/** The reads asked for at boot when the app is opened on `path` (the session check first). */
export function bootReads(path: string): string[] {
  if (path === '/login') return ['/v2/auth/me'];
  return ['/v2/auth/me', '/v2/user/preferences', ...(SCREEN_READS[path] ?? [])];
}

/**
 * At boot, before any other code of the app runs: the session check, and on any screen but
 * /login the landing screen's data with it rather than after it. A signed-in reload waits one
 * round trip, not three in a row. Signed out, the data answers 401 and nobody takes them.
 */
export function startBootReads(path: string): void {
  bootScreen = path;
  for (const read of bootReads(path)) preloadGet(read);
}

/**
 * True once, for the screen the app was opened on: only that first render waits for its data
 * (app/first-screen-data.ts). Screens reached later draw their own loading state.
 */
export function takeBootScreen(path: string): boolean {
  const first = bootScreen === path;
  bootScreen = null;
  return first;
}

/** Starts the session query (it takes the answer asked for at boot). */
export function startSessionQuery(queryClient: QueryClient): void {
  queryClient.query(meQueryOptions()).catch(() => undefined); // the screens ask again
}
