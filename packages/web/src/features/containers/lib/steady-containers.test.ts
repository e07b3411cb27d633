import type { Container } from '@berth/contracts';
import { describe, expect, it } from 'vitest';
import { LIVE_FIELDS, STATUS_FIELD, steadyContainers } from './steady-containers';

const c = (id: string, over: Partial<Container> = {}) =>
  ({
    host_id: 'h1',
    id,
    name: `app-${id}`,
    state: 'running',
    status: 'Up 1 minute',
    tags: [],
    cpu_percent: 1,
    memory_usage: 100,
    ...over,
  }) as Container;

describe('the containers list a table is given, renewed only when rows come, go or move', () => {
  it('stays the same list while only stats and the status text change', () => {
    const select = steadyContainers(LIVE_FIELDS);
    const [a, b] = [c('a'), c('b')];
    const first = [a, b];
    expect(select(first)).toBe(first);
    const ticked = { ...a, cpu_percent: 50, memory_usage: 900, status: 'Up 2 minutes' };
    expect(select([ticked, b])).toBe(first);
    // Compared with the list it kept, not the one before: two ticks in a row stay put.
    expect(select([{ ...ticked, cpu_percent: 70 }, b])).toBe(first);
  });

  it('is renewed when another field changes, or rows come, go or move', () => {
    const select = steadyContainers(LIVE_FIELDS);
    const [a, b, d] = [c('a'), c('b'), c('d')];
    select([a, b]);
    const stopped = { ...a, state: 'exited' as const };
    const tagged = { ...b, tags: ['db'] };
    for (const next of [
      [stopped, b],
      [stopped, tagged],
      [tagged, stopped],
      [tagged, stopped, d],
      [stopped, d],
      [stopped, b],
    ])
      expect(select(next)).toBe(next);
  });

  it('follows every stats change when the table is sorted by stats', () => {
    const select = steadyContainers(STATUS_FIELD);
    const [a, b] = [c('a'), c('b')];
    const first = [a, b];
    select(first);
    expect(select([{ ...a, status: 'Up 2 minutes' }, b])).toBe(first);
    const busier = [a, { ...b, cpu_percent: 99 }];
    expect(select(busier)).toBe(busier);
  });
});
