import type { Container, Host } from '@berth/contracts';
import { describe, expect, it } from 'vitest';
import { NO_CONTAINERS } from '@/lib/queries';
import { selectLiveHostFigures, withLiveFigures } from './live-hosts';

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
  connection: { type: 'tcp', agent: null },
});

const container = (hostId: string, id: string, state: Container['state']) =>
  ({ host_id: hostId, id, name: id, state }) as Container;
const stats = { cpu_percent: 12, mem_percent: 30, mem_bytes: 1, net_bytes_per_sec: 5 };

describe('withLiveFigures', () => {
  const hosts = [host('a', 'online'), host('b', 'offline')];
  const data = {
    ...NO_CONTAINERS,
    containers: [container('a', 'c1', 'running'), container('a', 'c2', 'exited')],
    host_metrics: { a: stats },
    host_sparklines: { a: { cpu: [1, 2], mem: [3], net: [4] } },
  };

  it('merges the live figures and counts into online hosts', () => {
    const [a, b] = withLiveFigures(hosts, selectLiveHostFigures(data));
    expect(a?.stats).toEqual(stats);
    expect(a?.sparklines?.cpu).toEqual([1, 2]);
    expect(a?.containers).toEqual({ total: 2, running: 1, stopped: 1 });
    expect(a?.container_count).toBe(2);
    // An offline host keeps its last known counts instead of dropping to zero.
    expect(b?.containers.total).toBe(9);
  });

  it('hands back the same host while its figures did not change', () => {
    const first = withLiveFigures(hosts, selectLiveHostFigures(data));
    // A message that changed only container stats: same list, same host figures.
    const again = withLiveFigures(hosts, selectLiveHostFigures({ ...data }));
    expect(again[0]).toBe(first[0]);
    const moved = withLiveFigures(
      hosts,
      selectLiveHostFigures({ ...data, host_metrics: { a: { ...stats, cpu_percent: 50 } } }),
    );
    expect(moved[0]).not.toBe(first[0]);
    expect(moved[0]?.stats?.cpu_percent).toBe(50);
  });
});
