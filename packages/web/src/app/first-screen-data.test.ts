import { QueryClient } from '@tanstack/react-query';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { bootReads, startBootReads } from '@/lib/preload';
import { meQueryOptions } from '@/lib/queries';
import { firstScreenLoader, firstScreenReads } from './first-screen-data';
import { paths } from './paths';

/** fetch that records each URL and answers (401: signed out) once told to, and from then on. */
function heldFetch() {
  const urls: string[] = [];
  const held: (() => void)[] = [];
  let answering = false;
  const signedOut = () => new Response('{"detail":"Not authenticated"}', { status: 401 });
  vi.stubGlobal(
    'fetch',
    vi.fn((url: string) => {
      urls.push(url);
      if (answering) return Promise.resolve(signedOut());
      return new Promise<Response>((resolve) => held.push(() => resolve(signedOut())));
    }),
  );
  const answerAll = () => {
    answering = true;
    for (const answer of held.splice(0)) answer();
  };
  return { urls, answerAll };
}

const loaderArgs = (path: string) =>
  ({ request: new Request(`http://berth.test${path}`), params: {}, context: {} }) as Parameters<
    ReturnType<typeof firstScreenLoader>
  >[0];

const settled = async (promise: Promise<unknown>) => {
  let done = false;
  promise.then(
    () => (done = true),
    () => (done = true),
  );
  await new Promise((resolve) => setTimeout(resolve, 0));
  return done;
};

describe('first screen data', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  it.each([paths.dashboard, paths.hosts, paths.containers, paths.events])(
    'waits on %s for exactly the reads asked for at boot',
    async (path) => {
      const fetches = heldFetch();
      fetches.answerAll();
      await Promise.allSettled(firstScreenReads(new QueryClient(), path));
      expect(fetches.urls.sort()).toEqual(
        bootReads(path)
          .map((read) => `/api${read}`)
          .sort(),
      );
    },
  );

  it('holds the screen it was opened on until its boot reads answer, and only that once', async () => {
    const fetches = heldFetch();
    const client = new QueryClient();
    startBootReads(paths.dashboard);
    const asked = fetches.urls.length;
    const loader = firstScreenLoader(client);

    const first = loader(loaderArgs(paths.dashboard));
    expect(await settled(first)).toBe(false);
    fetches.answerAll();
    await expect(first).resolves.toBeNull();
    // The answers asked for at boot were taken, not asked for again; signed out is an answer.
    expect(fetches.urls).toHaveLength(asked);
    expect(client.getQueryData(meQueryOptions().queryKey)).toBeNull();

    // Later navigations draw their own loading state at once.
    expect(await settled(loader(loaderArgs(paths.hosts)))).toBe(true);
    expect(await settled(loader(loaderArgs(paths.dashboard)))).toBe(true);
    expect(fetches.urls).toHaveLength(asked);
  });

  it('does not hold a screen the app was not opened on', async () => {
    const fetches = heldFetch();
    startBootReads(paths.events);
    const loader = firstScreenLoader(new QueryClient());
    expect(await settled(loader(loaderArgs(paths.dashboard)))).toBe(true);
    fetches.answerAll();
  });
});
