/**
 * The hosts a user reaches: null for every host, else a set of host tags (a host with one of
 * them is in reach). Admins always reach every host; tags narrow operators and viewers.
 */
export type HostScope = ReadonlySet<string> | null;

export function hostScopeOf(user: { role: string; host_tags: readonly string[] }): HostScope {
  return user.role === 'admin' || user.host_tags.length === 0 ? null : new Set(user.host_tags);
}

export function scopeReaches(scope: HostScope, hostTags: readonly string[]): boolean {
  return scope === null || hostTags.some((tag) => scope.has(tag));
}
