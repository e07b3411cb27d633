import type { Container } from '@berth/contracts';
import { describe, expect, it } from 'vitest';
import { applyFilters, NO_FILTERS, readFilters, writeFilters } from './container-filters';

const c = (over: Partial<Container>) =>
  ({
    host_id: 'h1',
    id: 'abc',
    name: 'web',
    image: 'nginx:1',
    host_name: 'edge',
    tags: [],
    state: 'running',
    auto_restart: false,
    desired_state: 'unspecified',
    auto_update_enabled: false,
    ...over,
  }) as Container;

describe('container filters in the query string', () => {
  it('keeps only listed values and reads the entry links', () => {
    const f = readFilters(
      new URLSearchParams(
        'state=running,paused,bogus&hostId=h2&policy_auto_restart=on&desired_state=should_run,x&updates=true',
      ),
    );
    expect(f).toEqual({
      ...NO_FILTERS,
      hosts: ['h2'],
      states: ['running', 'stopped'],
      updates: true,
      desired: ['should_run'],
    });
  });

  it('writes them back without the entry-link spelling and keeps containerId', () => {
    const out = writeFilters(new URLSearchParams('hostId=h2&containerId=k'), {
      ...NO_FILTERS,
      hosts: ['h2', 'h3'],
      autoRestart: 'enabled',
    });
    expect(out.toString()).toBe('containerId=k&host=h2%2Ch3&policy_auto_restart=enabled');
  });

  it('filters by host, state group, auto-restart and auto-update, desired state and searches name, image, host and tags', () => {
    const all = [
      c({ id: '1', name: 'web', tags: ['prod'] }),
      c({ id: '2', name: 'db', state: 'exited', auto_restart: true, image: 'postgres:16' }),
      c({
        id: '3',
        name: 'cache',
        host_id: 'h2',
        host_name: 'vault',
        desired_state: 'should_run',
        auto_update_enabled: true,
      }),
    ];
    const ids = (f = NO_FILTERS, q = '') =>
      applyFilters(all, f, q, { withUpdates: new Set(['h1:2']) }).map((x) => x.id);
    expect(ids({ ...NO_FILTERS, states: ['stopped'] })).toEqual(['2']);
    expect(ids({ ...NO_FILTERS, hosts: ['h2'] })).toEqual(['3']);
    expect(ids({ ...NO_FILTERS, autoRestart: 'enabled' })).toEqual(['2']);
    expect(ids({ ...NO_FILTERS, autoUpdate: 'enabled' })).toEqual(['3']);
    expect(ids({ ...NO_FILTERS, autoUpdate: 'disabled' })).toEqual(['1', '2']);
    expect(ids({ ...NO_FILTERS, desired: ['should_run'] })).toEqual(['3']);
    expect(ids({ ...NO_FILTERS, updates: true })).toEqual(['2']);
    expect(ids(NO_FILTERS, 'POSTGRES')).toEqual(['2']);
    expect(ids(NO_FILTERS, 'vault')).toEqual(['3']);
    expect(ids(NO_FILTERS, 'prod')).toEqual(['1']);
    // A search looks in each field, not across two.
    expect(ids(NO_FILTERS, 'dbpostgres')).toEqual([]);
    // Nothing filters: the same list, so the table keeps what it built from it.
    expect(applyFilters(all, NO_FILTERS, '  ', { withUpdates: new Set() })).toBe(all);
  });

  it('searches a container changed in place by its new fields', () => {
    const before = c({ id: '1', name: 'web' });
    const ctx = { withUpdates: new Set<string>() };
    expect(applyFilters([before], NO_FILTERS, 'web', ctx)).toHaveLength(1);
    const renamed = { ...before, name: 'api' };
    expect(applyFilters([renamed], NO_FILTERS, 'web', ctx)).toHaveLength(0);
    expect(applyFilters([renamed], NO_FILTERS, 'api', ctx)).toHaveLength(1);
  });
});
