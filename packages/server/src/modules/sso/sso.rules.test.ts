import { describe, expect, it } from 'vitest';
import { roleFromClaims } from './sso.rules.js';
import { SSO_DEFAULTS } from './sso.store.js';

const s = {
  ...SSO_DEFAULTS,
  role_claim: 'groups',
  admin_values: ['ops-admins'],
  operator_values: ['ops'],
  viewer_values: ['staff'],
};

describe('roleFromClaims', () => {
  it('gives the strongest role any held value maps to', () => {
    expect(roleFromClaims({ groups: ['staff', 'ops', 'x'] }, s)).toBe('operator');
    expect(roleFromClaims({ groups: ['staff', 'ops-admins'] }, s)).toBe('admin');
    expect(roleFromClaims({ groups: 'staff' }, s)).toBe('viewer');
  });

  it('falls back to the default role, or refuses (null) by default', () => {
    expect(roleFromClaims({ groups: ['nobody'] }, s)).toBeNull();
    expect(roleFromClaims({}, s)).toBeNull();
    expect(roleFromClaims({}, { ...s, default_role: 'viewer' })).toBe('viewer');
    // Without a role claim, every account gets the default.
    expect(
      roleFromClaims({ groups: ['ops'] }, { ...s, role_claim: '', default_role: 'operator' }),
    ).toBe('operator');
  });

  it('reads a nested claim by its dotted path, and a name with dots whole', () => {
    const keycloak = { ...s, role_claim: 'realm_access.roles' };
    expect(roleFromClaims({ realm_access: { roles: ['ops'] } }, keycloak)).toBe('operator');
    expect(roleFromClaims({ realm_access: ['ops'] }, keycloak)).toBeNull();
    const auth0 = { ...s, role_claim: 'https://berth.example/roles' };
    expect(roleFromClaims({ 'https://berth.example/roles': ['ops-admins'] }, auth0)).toBe('admin');
  });

  it('never matches a value by substring or case', () => {
    expect(roleFromClaims({ groups: ['OPS-ADMINS', 'ops-admins-old'] }, s)).toBeNull();
  });
});
