import type { Container, Host } from '@berth/contracts';
import { QueryClient } from '@tanstack/react-query';
import { describe, expect, it } from 'vitest';
import { containersQueryOptions, dashboardHostsQueryOptions } from '../queries';
import { routeLiveMessage } from './live-routing';

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

describe('containers_update', () => {
  it('writes containers and host figures into the cache without a refetch', () => {
    const qc = new QueryClient();
    qc.setQueryData(dashboardHostsQueryOptions().queryKey, [
      host('a', 'online'),
      host('b', 'offline'),
    ]);
    const containers = [container('a', 'c1', 'running'), container('a', 'c2', 'exited')];
    const stats = { cpu_percent: 12, mem_percent: 30, mem_bytes: 1, net_bytes_per_sec: 5 };
    routeLiveMessage(
      {
        type: 'containers_update',
        data: {
          containers,
          host_metrics: { a: stats },
          host_sparklines: { a: { cpu: [1, 2], mem: [3], net: [4] } },
          container_sparklines: {},
          timestamp: new Date().toISOString(),
        },
      },
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
});
