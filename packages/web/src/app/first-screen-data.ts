import type { QueryClient } from '@tanstack/react-query';
import type { LoaderFunctionArgs } from 'react-router';
import { takeBootScreen } from '@/lib/preload';
import {
  alertStatsQueryOptions,
  containersQueryOptions,
  dashboardHostsQueryOptions,
  meQueryOptions,
  preferencesQueryOptions,
  updatesSummaryQueryOptions,
} from '@/lib/queries';
import { paths } from './paths';

/** Past this, the screen is drawn with whatever has arrived and shows its own loading state. */
const FIRST_SCREEN_WAIT_MS = 5000;

type Reads = (client: QueryClient) => Promise<unknown>[];
/** Read what is not in the cache yet, in one attempt. */
const ONCE = { staleTime: 'static', retry: false } as const;

/**
 * What each screen's first render is drawn from besides the session and the preferences: the
 * same reads lib/preload.ts asks for at boot (first-screen-data.test.ts holds the two lists
 * together). One attempt each: signed out, every read fails at once, and the screen retries
 * what it needs when it mounts.
 */
const SCREEN_QUERIES: Record<string, Reads> = {
  [paths.dashboard]: (c) => [
    c.query({ ...dashboardHostsQueryOptions(), ...ONCE }),
    c.query({ ...containersQueryOptions(), ...ONCE }),
    c.query({ ...alertStatsQueryOptions(), ...ONCE }),
    c.query({ ...updatesSummaryQueryOptions(), ...ONCE }),
  ],
  [paths.hosts]: (c) => [c.query({ ...dashboardHostsQueryOptions(), ...ONCE })],
  [paths.containers]: (c) => [c.query({ ...containersQueryOptions(), ...ONCE })],
};

/** The session check, the preferences and the screen's own first reads, into the cache. */
export function firstScreenReads(client: QueryClient, path: string): Promise<unknown>[] {
  return [
    client.query({ ...meQueryOptions(), ...ONCE }),
    client.query({ ...preferencesQueryOptions(), ...ONCE }),
    ...(SCREEN_QUERIES[path]?.(client) ?? []),
  ];
}

/**
 * The shell's loader. When the app is opened (a cold load or a reload), the screen waits for
 * the data its requests already left for at boot, so the shell and the screen are drawn once,
 * with their data, instead of as skeletons first and again as each answer is read (with the
 * shell's other reads competing in between). A failed read is the screen's to show; a signed-
 * out session is the protected route's. Later navigations do not wait.
 */
export function firstScreenLoader(client: QueryClient) {
  return async ({ request }: LoaderFunctionArgs): Promise<null> => {
    const path = new URL(request.url).pathname;
    if (!takeBootScreen(path)) return null;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const cap = new Promise<void>((resolve) => (timer = setTimeout(resolve, FIRST_SCREEN_WAIT_MS)));
    await Promise.race([Promise.allSettled(firstScreenReads(client, path)), cap]);
    clearTimeout(timer);
    return null;
  };
}
