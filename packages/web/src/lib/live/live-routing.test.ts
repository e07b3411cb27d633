import type { Container, ContainersUpdate, Host, LiveMessage } from '@berth/contracts';
import { QueryClient } from '@tanstack/react-query';
import { describe, expect, it } from 'vitest';
import { containersQueryOptions, dashboardHostsQueryOptions } from '../queries';
import { LiveRouter, routeLiveMessage } from './live-routing';

const host = (id: string, status: Host['status']): Host => ({
  id,
  name: id,
  url: 'tcp://x',
  status,
  error: null,
  security_status: 'insecure',
  tags: [],
  description: null,
  os_version: null,
  docker_version: null,
  num_cpus: null,
  total_memory: null,
  last_checked: null,
  daemon_started_at: null,
  uptime_source: null,
  uptime_note: null,
  container_count: 9,
  updates_available: 0,
  alerts: { open: 0, snoozed: 0 },
  stats: null,
  sparklines: null,
  containers: { total: 9, running: 9, stopped: 0 },
});

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

describe('containers_update', () => {
  it('writes containers and host figures into the cache without a refetch', () => {
    const qc = new QueryClient();
    qc.setQueryData(dashboardHostsQueryOptions().queryKey, [
      host('a', 'online'),
      host('b', 'offline'),
    ]);
    const containers = [container('a', 'c1', 'running'), container('a', 'c2', 'exited')];
    routeLiveMessage(
      update({
        seq: 1,
        full: true,
        containers,
        host_sparklines: { ...noSeries, set: { a: { cpu: [1, 2], mem: [3], net: [4] } } },
      }),
      qc,
    );
    expect(qc.getQueryData(containersQueryOptions().queryKey)).toEqual(containers);
    const [a, b] = qc.getQueryData<Host[]>(dashboardHostsQueryOptions().queryKey) ?? [];
    expect(a?.stats).toEqual(stats);
    expect(a?.sparklines?.cpu).toEqual([1, 2]);
    expect(a?.containers).toEqual({ total: 2, running: 1, stopped: 1 });
    // An offline host keeps its last known counts instead of dropping to zero.
    expect(b?.containers.total).toBe(9);
  });

  it('applies deltas in sequence, and after a gap keeps the rows and asks for the full state', () => {
    const qc = new QueryClient();
    let asked = 0;
    const router = new LiveRouter(qc, () => asked++);
    const c1 = container('a', 'c1', 'running');
    const c2 = container('a', 'c2', 'running');
    router.route(update({ seq: 7, full: true, containers: [c1, c2] }));
    router.route(update({ seq: 8, changed: [{ key: 'a:c2', fields: { state: 'exited' } }] }));
    const rows = () => qc.getQueryData<Container[]>(containersQueryOptions().queryKey) ?? [];
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
});
