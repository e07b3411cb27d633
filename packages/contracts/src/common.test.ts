import { describe, expect, it } from 'vitest';
import { containerKey, parseContainerKey } from './common.js';

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
