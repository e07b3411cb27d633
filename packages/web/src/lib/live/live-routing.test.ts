import type {
  ClientLiveMessage,
  Container,
  ContainersUpdate,
  Host,
  LiveMessage,
} from '@berth/contracts';
import { QueryClient } from '@tanstack/react-query';
import { describe, expect, it, vi } from 'vitest';
import { alertsRootKey } from '../alerts';
import {
  dashboardHostsQueryOptions,
  eventsRootKey,
  hostsQueryOptions,
  liveContainersQueryOptions,
  NO_CONTAINERS,
  settingsQueryOptions,
  type ContainersData,
} from '../queries';
import { LiveRouter, routeLiveMessage } from './live-routing';

const container = (hostId: string, id: string, state: Container['state']) =>
  ({ host_id: hostId, id, name: id, state }) as Container;

const stats = { cpu_percent: 12, mem_percent: 30, mem_bytes: 1, net_bytes_per_sec: 5 };
const noSeries = { tails: [], set: {}, removed: [] };
const update = (data: Partial<ContainersUpdate> & { seq: number }): LiveMessage => ({
  type: 'containers_update',
  data: {
    full: false,
    containers: [],
    removed: [],
    changed: [],
    stats: {},
    host_metrics: { a: stats },
    host_sparklines: noSeries,
    container_sparklines: {},
    timestamp: new Date().toISOString(),
    ...data,
  },
});

const entry = (qc: QueryClient) =>
  qc.getQueryData<ContainersData>(liveContainersQueryOptions().queryKey);

describe('containers_update', () => {
  it('writes the list and the live figures into the cache without a refetch, in one write', () => {
    const qc = new QueryClient();
    const writes = vi.spyOn(qc, 'setQueryData');
    const containers = [container('a', 'c1', 'running'), container('a', 'c2', 'exited')];
    const router = new LiveRouter(qc);
    router.route(
      update({
        seq: 1,
        full: true,
        containers,
        host_sparklines: { ...noSeries, set: { a: { cpu: [1, 2], mem: [3], net: [4] } } },
      }),
    );
    expect(writes).toHaveBeenCalledTimes(1);
    expect(entry(qc)?.containers).toEqual(containers);
    expect(entry(qc)?.host_metrics.a).toEqual(stats);
    expect(entry(qc)?.host_sparklines.a?.cpu).toEqual([1, 2]);
    router.route(
      update({
        seq: 2,
        stats: { a: [['c1', 50, 1, 2, 3, 4, 5, 6]] },
        container_sparklines: { a: { ...noSeries, set: { c1: { cpu: [5], mem: [6], net: [7] } } } },
      }),
    );
    expect(writes).toHaveBeenCalledTimes(2);
    expect(entry(qc)?.containers[0]?.cpu_percent).toBe(50);
    expect(entry(qc)?.container_sparklines['a:c1']?.cpu).toEqual([5]);
  });

  it('keeps the objects of unchanged containers and equal host figures', () => {
    const qc = new QueryClient();
    const shown = [container('a', 'c1', 'running'), container('a', 'c2', 'running')];
    qc.setQueryData<ContainersData>(liveContainersQueryOptions().queryKey, {
      ...NO_CONTAINERS,
      containers: shown,
    });
    const router = new LiveRouter(qc);
    // The full state names every container anew: equal ones keep the objects already shown.
    router.route(
      update({
        seq: 1,
        full: true,
        containers: [{ ...shown[0] } as Container, container('a', 'c2', 'exited')],
      }),
    );
    const first = entry(qc);
    expect(first?.containers[0]).toBe(shown[0]);
    expect(first?.containers[1]?.state).toBe('exited');
    router.route(update({ seq: 2, host_metrics: { a: { ...stats } } }));
    expect(entry(qc)?.containers).toBe(first?.containers);
    expect(entry(qc)?.host_metrics.a).toBe(first?.host_metrics.a);
  });

  it('applies deltas in sequence, and after a gap keeps the rows and asks for the full state', () => {
    const qc = new QueryClient();
    let asked = 0;
    const router = new LiveRouter(qc, (message) => {
      expect(message).toEqual({ type: 'containers_resync' });
      asked++;
    });
    const c1 = container('a', 'c1', 'running');
    const c2 = container('a', 'c2', 'running');
    router.route(update({ seq: 7, full: true, containers: [c1, c2] }));
    router.route(update({ seq: 8, changed: [{ key: 'a:c2', fields: { state: 'exited' } }] }));
    const rows = () => entry(qc)?.containers ?? [];
    expect(rows()[0]).toBe(c1);
    expect(rows()[1]?.state).toBe('exited');
    // Message 9 is lost: 10 does not apply, the rows stay, the full state is asked for once.
    router.route(update({ seq: 10, removed: ['a:c1'] }));
    router.route(update({ seq: 11, removed: ['a:c1'] }));
    expect(asked).toBe(1);
    expect(rows()).toHaveLength(2);
    router.route(update({ seq: 11, full: true, containers: [c2] }));
    router.route(update({ seq: 12, removed: ['a:c2'] }));
    expect(rows()).toEqual([]);
  });

  it('leaves container sparklines out while no screen shows them, and asks for them when one does', () => {
    const qc = new QueryClient();
    const sent: ClientLiveMessage[] = [];
    let shown = false;
    const router = new LiveRouter(
      qc,
      (message) => sent.push(message),
      () => shown,
    );
    const c1 = container('a', 'c1', 'running');
    const series = { cpu: [1, 2], mem: [3, 4], net: [5, 6] };
    const sparks = () => entry(qc)?.container_sparklines ?? {};
    router.route(
      update({
        seq: 1,
        full: true,
        containers: [c1],
        container_sparklines: { a: { ...noSeries, set: { c1: series } } },
      }),
    );
    expect(sparks()).toEqual({});
    // The server may send some before it heard that none are shown: they are left out too.
    const tail = { a: { ...noSeries, tails: [['c1', 2, [7], [8], [9]]] as never } };
    router.route(update({ seq: 2, container_sparklines: tail }));
    expect(sparks()).toEqual({});
    expect(entry(qc)?.containers).toEqual([c1]);
    // A screen shows them: the server is told, and answers with the full state, which brings
    // them; a gap meanwhile asks for nothing more, since that full state is coming.
    shown = true;
    router.containerSparklinesWanted();
    router.route(update({ seq: 9 }));
    expect(sent).toEqual([{ type: 'container_sparklines', shown: true }]);
    router.route(
      update({
        seq: 2,
        full: true,
        containers: [c1],
        container_sparklines: {
          a: { ...noSeries, set: { c1: { cpu: [2, 7], mem: [4, 8], net: [6, 9] } } },
        },
      }),
    );
    router.route(
      update({
        seq: 3,
        container_sparklines: { a: { ...noSeries, tails: [['c1', 2, [10], [11], [12]]] as never } },
      }),
    );
    expect(sparks()).toEqual({ 'a:c1': { cpu: [7, 10], mem: [8, 11], net: [9, 12] } });
    // None shown any more: the server is told, and what it still sends is left out.
    shown = false;
    router.containerSparklinesUnwanted();
    expect(sent.at(-1)).toEqual({ type: 'container_sparklines', shown: false });
    router.route(
      update({
        seq: 4,
        container_sparklines: { a: { ...noSeries, tails: [['c1', 2, [13], [14], [15]]] as never } },
      }),
    );
    expect(sparks()).toEqual({});
    // A gap now asks for the full state.
    router.route(update({ seq: 6 }));
    expect(sent.at(-1)).toEqual({ type: 'containers_resync' });
  });

  it('leaves other messages to the refresh table', () => {
    const qc = new QueryClient();
    const invalidate = vi.spyOn(qc, 'invalidateQueries');
    routeLiveMessage({ type: 'host_status_changed', data: {} } as LiveMessage, qc);
    expect(invalidate).toHaveBeenCalledTimes(1);
    expect(invalidate).toHaveBeenCalledWith({ queryKey: hostsQueryOptions().queryKey });
  });
});

describe('initial_state', () => {
  it('writes the hosts it carries for every hosts list, and refreshes what one-shot messages do', () => {
    const qc = new QueryClient();
    const invalidate = vi.spyOn(qc, 'invalidateQueries');
    const hosts = [{ id: 'a', name: 'alpha' }] as Host[];
    const router = new LiveRouter(qc);
    router.route(update({ seq: 1, full: true, containers: [container('a', 'c1', 'running')] }));
    router.route({
      type: 'initial_state',
      data: { hosts, blackout: { is_active: false } },
    });
    // Hosts and containers are not asked for again; what only one-shot messages refresh is,
    // since those sent before this connect never arrived.
    const refreshed = invalidate.mock.calls.map(([filters]) => filters?.queryKey);
    expect(refreshed).toEqual(
      expect.arrayContaining([eventsRootKey(), alertsRootKey(), settingsQueryOptions().queryKey]),
    );
    expect(refreshed).not.toContainEqual(hostsQueryOptions().queryKey);
    expect(refreshed).not.toContainEqual(liveContainersQueryOptions().queryKey);
    expect(qc.getQueryData(hostsQueryOptions().queryKey)).toEqual(hosts);
    expect(qc.getQueryData(dashboardHostsQueryOptions().queryKey)).toEqual(hosts);
    // The containers stay as the full containers_update before it on the same socket wrote them.
    expect(entry(qc)?.containers.map((c) => c.id)).toEqual(['c1']);
  });
});
