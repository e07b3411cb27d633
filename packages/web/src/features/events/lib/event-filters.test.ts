import { describe, expect, it } from 'vitest';
import {
  eventQuery,
  limitForHeight,
  NO_FILTERS,
  pageInfo,
  readFilters,
  scopeFilter,
  writeFilters,
} from './event-filters';

describe('event log filters', () => {
  it('sizes the page from the window height: 35 px rows below 280 px, 15 to 35', () => {
    expect(limitForHeight(900)).toBe(17);
    expect(limitForHeight(768)).toBe(15);
    expect(limitForHeight(1080)).toBe(22);
    expect(limitForHeight(3000)).toBe(35);
  });

  it('round-trips through the query string and leaves defaults out', () => {
    const f = {
      hours: 168,
      categories: ['container' as const, 'host' as const],
      severities: ['error' as const],
      hosts: ['h1'],
      containers: ['h1:abc'],
      search: 'died',
    };
    const params = writeFilters(new URLSearchParams('keep=1'), f);
    expect(readFilters(params)).toEqual(f);
    expect(params.get('keep')).toBe('1');
    expect(writeFilters(new URLSearchParams(), NO_FILTERS).toString()).toBe('');
  });

  it('drops unknown values and reads ?host_id= as the host filter', () => {
    const f = readFilters(new URLSearchParams('hours=5&category=bogus&severity=info&host_id=h9'));
    expect(f).toEqual({ ...NO_FILTERS, severities: ['info'], hosts: ['h9'] });
  });

  it('builds the API query with the order and page', () => {
    expect(eventQuery({ ...NO_FILTERS, search: '  x ' }, 'asc', 20, 40)).toMatchObject({
      hours: 24,
      search: 'x',
      sort_order: 'asc',
      limit: 20,
      offset: 40,
    });
  });

  it('writes the footer texts', () => {
    expect(pageInfo(20, 20, 45)).toEqual({
      showing: 'Showing 21-40 of 45 events',
      page: 'Page 2 of 3',
    });
    expect(pageInfo(0, 20, 0)).toEqual({ showing: 'Showing 0-0 of 0 events', page: 'Page 1 of 1' });
  });

  it('resolves a scope id to a host, a container key or a container name', () => {
    const hosts = [{ id: 'h1' }];
    const containers = [{ host_id: 'h1', id: 'abcdefabcdef', name: 'web' }];
    expect(scopeFilter('h1', hosts, containers)).toEqual({ hosts: ['h1'], containers: [] });
    expect(scopeFilter('h1:abcdefabcdef99', hosts, containers)).toEqual({
      hosts: [],
      containers: ['h1:abcdefabcdef'],
    });
    expect(scopeFilter('h1:web', hosts, containers)).toEqual({
      hosts: [],
      containers: ['h1:abcdefabcdef'],
    });
    expect(scopeFilter('h1:gone', hosts, containers)).toEqual({
      hosts: [],
      containers: ['h1:gone'],
    });
  });
});
