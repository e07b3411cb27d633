import type { Container } from '@berth/contracts';
import { describe, expect, it } from 'vitest';
import { sortHostContainers } from './container-sort';
import { hostContainersQueryOptions, NO_CONTAINERS } from './queries';

const container = (hostId: string, name: string, extra: Partial<Container> = {}) =>
  ({ host_id: hostId, id: `${hostId}-${name}`, name, state: 'running', ...extra }) as Container;

describe('sortHostContainers by name', () => {
  it('ignores case first, then puts upper case first among equal names', () => {
    const list = ['web', 'Api', 'api', 'db-2', 'DB-1', 'cache'].map((n) => container('h', n));
    expect(sortHostContainers(list, 'name').map((c) => c.name)).toEqual([
      'Api',
      'api',
      'cache',
      'DB-1',
      'db-2',
      'web',
    ]);
  });

  it('breaks CPU ties by name and leaves the input alone', () => {
    const list = [
      container('h', 'b', { cpu_percent: 5 }),
      container('h', 'a', { cpu_percent: 5 }),
      container('h', 'c', { cpu_percent: 9 }),
    ];
    expect(sortHostContainers(list, 'cpu').map((c) => c.name)).toEqual(['c', 'a', 'b']);
    expect(list.map((c) => c.name)).toEqual(['b', 'a', 'c']);
  });

  it('puts running first by state, the highest memory first, and the newest start first', () => {
    const list = [
      container('h', 'b', { state: 'exited', memory_percent: 70, started_at: null }),
      container('h', 'c', { memory_percent: 10, started_at: '2026-11-02T00:00:00Z' }),
      container('h', 'a', { state: 'exited', memory_percent: null, started_at: null }),
      container('h', 'd', { memory_percent: 10, started_at: '2026-11-03T00:00:00Z' }),
    ];
    const order = (sort: 'state' | 'memory' | 'start_time') =>
      sortHostContainers(list, sort).map((c) => c.name);
    expect(order('state')).toEqual(['c', 'd', 'a', 'b']);
    expect(order('memory')).toEqual(['b', 'c', 'd', 'a']);
    expect(order('start_time')).toEqual(['d', 'c', 'a', 'b']);
  });
});

describe('hostContainersQueryOptions', () => {
  const select = (hostId: string) => {
    const { select: pick } = hostContainersQueryOptions(hostId);
    if (pick === undefined) throw new Error('no select');
    return pick;
  };
  const data = {
    ...NO_CONTAINERS,
    containers: [container('a', 'x'), container('b', 'y'), container('a', 'z')],
  };

  it("selects one host's containers in list order, and none for an unknown host", () => {
    expect(select('a')(data).map((c) => c.name)).toEqual(['x', 'z']);
    expect(select('b')(data).map((c) => c.name)).toEqual(['y']);
    expect(select('nope')(data)).toEqual([]);
  });

  it('groups a list once: the same list gives the same arrays', () => {
    expect(select('a')(data)).toBe(select('a')(data));
    const next = { ...data, containers: [...data.containers] };
    expect(select('a')(next)).not.toBe(select('a')(data));
    expect(select('a')(next)).toEqual(select('a')(data));
  });
});
