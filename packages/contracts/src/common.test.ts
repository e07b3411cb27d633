import { describe, expect, it } from 'vitest';
import { containerKey, containerKeyOf, containerNameKey, parseContainerKey } from './common.js';

describe('container keys', () => {
  it('joins a host id and the short container id', () => {
    expect(containerKey('h1', 'a'.repeat(64))).toBe(`h1:${'a'.repeat(12)}`);
    expect(containerKey('5f0c-uuid', 'abc123def456')).toBe('5f0c-uuid:abc123def456');
  });

  it('parses what it joins, and refuses what is not a key', () => {
    expect(parseContainerKey(containerKey('h1', 'b'.repeat(64)))).toEqual({
      hostId: 'h1',
      containerId: 'b'.repeat(12),
    });
    for (const bad of ['', 'h1', ':abc', 'h1:']) expect(parseContainerKey(bad)).toBeNull();
  });
});

describe('containerKeyOf', () => {
  it('is the container key of an API container', () => {
    expect(containerKeyOf({ host_id: 'h1', id: 'c'.repeat(12) })).toBe(
      containerKey('h1', 'c'.repeat(12)),
    );
  });
});

describe('containerNameKey', () => {
  it('tells apart pairs that a visible separator would join into one key', () => {
    expect(containerNameKey('h1', 'web')).toBe(containerNameKey('h1', 'web'));
    expect(containerNameKey('h1', 'web')).not.toBe(containerNameKey('h1', 'web2'));
    expect(containerNameKey('h:1', 'web')).not.toBe(containerNameKey('h', '1:web'));
    expect(containerNameKey('h1', 'web')).not.toBe(containerKey('h1', 'web'));
  });
});
