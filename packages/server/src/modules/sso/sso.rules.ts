import type { UserRole } from '@berth/contracts';
import type { StoredSsoSettings } from './sso.store.js';

// The rules of single sign-on that need no provider or database: roles from claims, names.

const ROLE_ORDER: readonly UserRole[] = ['admin', 'operator', 'viewer'];

/**
 * A claim by its name, or else by a dotted path into objects (Keycloak's
 * `realm_access.roles`); names with dots of their own (`https://example.com/roles`) match
 * whole first.
 */
export function claimAt(claims: Record<string, unknown>, name: string): unknown {
  if (claims[name] !== undefined) return claims[name];
  let value: unknown = claims;
  for (const part of name.split('.')) {
    if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
    value = (value as Record<string, unknown>)[part];
  }
  return value;
}

/** The strongest role whose claim values the account has, or the default (null: refused). */
export function roleFromClaims(claims: Record<string, unknown>, s: StoredSsoSettings) {
  const raw = s.role_claim === '' ? undefined : claimAt(claims, s.role_claim);
  const held = new Set(
    (Array.isArray(raw) ? raw : raw === undefined || raw === null ? [] : [raw]).map(String),
  );
  const values: Record<UserRole, string[]> = {
    admin: s.admin_values,
    operator: s.operator_values,
    viewer: s.viewer_values,
  };
  const role = ROLE_ORDER.find((r) => values[r].some((v) => held.has(v)));
  if (role !== undefined) return role;
  return s.default_role === 'refuse' ? null : s.default_role;
}

export const text = (value: unknown): string | null =>
  typeof value === 'string' && value.trim() !== '' ? value.trim() : null;

export const ready = (s: StoredSsoSettings) =>
  s.enabled && s.issuer_url !== '' && s.client_id !== '';

export function nameOf(s: StoredSsoSettings): string {
  if (s.display_name !== '') return s.display_name;
  try {
    return new URL(s.issuer_url).hostname;
  } catch {
    return 'single sign-on';
  }
}

/** Finished sign-ons' states are remembered (each for its flow's life), at most this many. */
const USED_STATES_MAX = 10_000;

/** The states of finished sign-ons, until their flows expire: a flow cookie is used once. */
export class UsedStates {
  private readonly states = new Map<string, number>();

  constructor(private readonly now: () => number) {}

  has(state: string): boolean {
    return this.states.has(state);
  }

  add(state: string, expires: number): void {
    const now = this.now();
    for (const [old, until] of this.states) {
      // In insertion order, so roughly by expiry: the first live one ends the sweep.
      if (until > now) break;
      this.states.delete(old);
    }
    if (this.states.size >= USED_STATES_MAX) {
      const oldest = this.states.keys().next();
      if (oldest.done !== true) this.states.delete(oldest.value);
    }
    this.states.set(state, expires);
  }
}
