import type { Container, LiveMessage } from '@berth/contracts';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, cleanup, render, screen } from '@testing-library/react';
import { useEffect } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { containersQueryOptions, NO_CONTAINERS } from '@/lib/queries';
import { deliver } from '@/test/fake-live';
import { ContainerDetailDialog } from './container-detail-dialog';

/** How often the Updates tab was mounted. */
const live = vi.hoisted(() => ({ updatesMounts: 0 }));

vi.mock('@/lib/live/live-provider', () => import('@/test/fake-live'));
// The other tabs and the buttons are not what this tests (and draw charts jsdom cannot).
vi.mock('../power-buttons', () => ({ PowerButtons: () => null }));
vi.mock('../container-logs-panel', () => ({ ContainerLogsPanel: () => null }));
vi.mock('./info-tab', () => ({ InfoTab: () => null }));
vi.mock('./metrics-tab', () => ({ MetricsTab: () => null }));
vi.mock('./events-tab', () => ({ EventsTab: () => null }));
vi.mock('./alerts-tab', () => ({ AlertsTab: () => null }));
vi.mock('./health-check-tab', () => ({ HealthCheckTab: () => null }));
vi.mock('./updates-tab', () => ({
  UpdatesTab: ({ container }: { container: Container }) => {
    useEffect(() => {
      live.updatesMounts++;
    }, []);
    return <p data-testid="updates-stub">{container.id}</p>;
  },
}));

const container = (id: string) =>
  ({
    host_id: 'h1',
    host_name: 'edge',
    id,
    name: 'web',
    state: 'running',
    started_at: new Date().toISOString(),
  }) as Container;

/** Runs `change` and lets the query cache tell its observers (it does so on a timer). */
const settled = (change: () => void) =>
  act(async () => {
    change();
    await new Promise((r) => setTimeout(r, 10));
  });
const send = (message: LiveMessage) => settled(() => deliver(message));

/**
 * Opens the dialog on the Updates tab of container aaaaaaaaaaaa; returns how the test lists
 * the containers after that (the live list's cache, as the live channel writes it).
 */
function openOnUpdates() {
  const client = new QueryClient({ defaultOptions: { queries: { staleTime: Infinity } } });
  const key = containersQueryOptions().queryKey;
  client.setQueryData(key, { ...NO_CONTAINERS, containers: [container('aaaaaaaaaaaa')] });
  render(
    <QueryClientProvider client={client}>
      <ContainerDetailDialog containerKey="h1:aaaaaaaaaaaa" tab="updates" onClose={() => {}} />
    </QueryClientProvider>,
  );
  return (...containers: Container[]) =>
    settled(() => client.setQueryData(key, { ...NO_CONTAINERS, containers }));
}

afterEach(() => {
  cleanup();
  live.updatesMounts = 0;
});

describe('the container dialog across an update that recreates the container', () => {
  it('keeps its tab and the container it had until the new one is listed, then follows it', async () => {
    const list = openOnUpdates();
    expect(screen.getByTestId('updates-stub').textContent).toBe('aaaaaaaaaaaa');

    // The update announces the new container; the list that holds it comes a moment later,
    // and the old one may already be gone from it.
    await send({
      type: 'container_recreated',
      data: {
        host_id: 'h1',
        old_composite_key: 'h1:aaaaaaaaaaaa',
        new_composite_key: 'h1:bbbbbbbbbbbb',
        container_name: 'web',
      },
    });
    await list();
    expect(screen.queryByText('This container is no longer listed.')).toBeNull();
    expect(screen.getByTestId('updates-stub').textContent).toBe('aaaaaaaaaaaa');

    await list(container('bbbbbbbbbbbb'));
    expect(screen.getByTestId('updates-stub').textContent).toBe('bbbbbbbbbbbb');
    expect(screen.getByRole('tab', { name: 'Updates' }).getAttribute('aria-selected')).toBe('true');
    expect(live.updatesMounts).toBe(1);
  });

  it('keeps the name it had while the update holds the container under a backup name', async () => {
    const list = openOnUpdates();
    const renamed = (name: string) => ({ ...container('aaaaaaaaaaaa'), name });
    const progress = (stage: string) =>
      send({
        type: 'container_update_progress',
        data: { host_id: 'h1', container_id: 'aaaaaaaaaaaa', stage, progress: 60, message: stage },
      });
    const title = () => screen.getByRole('heading', { level: 2 }).textContent;
    await progress('backup');
    await list(renamed('web-berth-old-1700000000000'));
    expect(title()).toBe('web (edge)');
    await progress('rolled_back');
    expect(title()).toBe('web-berth-old-1700000000000 (edge)');
    // Without an update, a rename is shown as it is.
    await list(renamed('web-2'));
    expect(title()).toBe('web-2 (edge)');
  });

  it('says the container is gone when it is removed without being recreated', async () => {
    const list = openOnUpdates();
    await list();
    expect(screen.getByText('This container is no longer listed.')).toBeTruthy();
  });
});
