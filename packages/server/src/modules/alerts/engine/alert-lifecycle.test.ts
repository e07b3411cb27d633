import { containerScopeId } from '@berth/contracts';
import { describe, expect, it } from 'vitest';
import { ruleScopeKey } from './alert-lifecycle.js';

describe('ruleScopeKey', () => {
  it('is the dedup key stored with an alert: rule id, |, scope id', () => {
    expect(ruleScopeKey('r1', containerScopeId('h1', 'web'))).toBe('r1|h1:web');
  });

  it('differs per rule and per scope', () => {
    const keys = new Set([
      ruleScopeKey('r1', 'h1'),
      ruleScopeKey('r2', 'h1'),
      ruleScopeKey('r1', containerScopeId('h1', 'web')),
    ]);
    expect(keys.size).toBe(3);
  });
});
