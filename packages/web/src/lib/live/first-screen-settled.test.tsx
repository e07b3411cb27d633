import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, renderHook } from '@testing-library/react';
import type { ReactNode } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { useFirstScreenSettled, whenFirstScreenSettled } from './first-screen-settled';

/** A query whose answer the test gives: `answer()` ends its fetch. */
function pendingQuery(client: QueryClient) {
  let answer = () => {};
  void client.query({
    queryKey: ['slow'],
    queryFn: () => new Promise<number>((resolve) => (answer = () => resolve(1))),
  });
  return () => answer();
}

afterEach(() => {
  vi.useRealTimers();
});

describe('the live socket waits for the first screen', () => {
  it('until no query is fetching', async () => {
    const client = new QueryClient();
    const answer = pendingQuery(client);
    const ready = vi.fn();
    whenFirstScreenSettled(client, ready);
    await new Promise((r) => setTimeout(r, 20));
    expect(ready).not.toHaveBeenCalled();
    answer();
    await vi.waitFor(() => expect(ready).toHaveBeenCalledOnce());
  });

  it('at most 3 s, and not at all once cancelled', () => {
    vi.useFakeTimers();
    const client = new QueryClient();
    pendingQuery(client);
    const ready = vi.fn();
    whenFirstScreenSettled(client, ready);
    vi.advanceTimersByTime(2999);
    expect(ready).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(ready).toHaveBeenCalledOnce();

    const never = vi.fn();
    const cancel = whenFirstScreenSettled(client, never);
    cancel();
    vi.advanceTimersByTime(5000);
    expect(never).not.toHaveBeenCalled();
  });
});

describe('useFirstScreenSettled', () => {
  it('turns true once the first screen settles, and is true at once for later mounts', async () => {
    const client = new QueryClient();
    const answer = pendingQuery(client);
    const wrapper = ({ children }: { children: ReactNode }) => (
      <QueryClientProvider client={client}>{children}</QueryClientProvider>
    );
    const first = renderHook(() => useFirstScreenSettled(), { wrapper });
    expect(first.result.current).toBe(false);
    await act(async () => {
      await new Promise((resolve) => setTimeout(resolve, 20));
    });
    expect(first.result.current).toBe(false); // a query is still fetching
    await act(async () => {
      answer();
      await new Promise((resolve) => setTimeout(resolve, 20));
    });
    expect(first.result.current).toBe(true);
    expect(renderHook(() => useFirstScreenSettled(), { wrapper }).result.current).toBe(true);
  });
});
