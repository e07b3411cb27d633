import type { UserRole } from '@berth/contracts';
import type { StoredSsoSettings } from './sso.store.js';

const ROLE_ORDER: readonly UserRole[] = ['admin', 'operator', 'viewer'];

/** The strongest role whose claim values the account has, or the default (null: refused). */
export function roleFromClaims(claims: Record<string, unknown>, s: StoredSsoSettings) {
  const raw = s.role_claim === '' ? undefined : claims[s.role_claim];
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
