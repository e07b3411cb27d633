import { describe, expect, it } from 'vitest';
import { containerScopeId, parseContainerScopeId } from './alerts.js';

describe('container scope ids', () => {
  it('join a host id and a container name', () => {
    expect(containerScopeId('5f0c-uuid', 'web-1')).toBe('5f0c-uuid:web-1');
  });

  it('parse back into what they join, and refuse what is not a container scope', () => {
    expect(parseContainerScopeId(containerScopeId('5f0c-uuid', 'web-1'))).toEqual({
      hostId: '5f0c-uuid',
      rest: 'web-1',
    });
    for (const bad of ['', 'h1', ':web', 'h1:']) expect(parseContainerScopeId(bad)).toBeNull();
  });
});
