import type { Host } from '@berth/contracts';

export const UNTAGGED = 'Untagged';

export interface HostGroup {
  tag: string;
  hosts: Host[];
  counts: { online: number; offline: number; error: number };
}

/**
 * Hosts grouped by their first tag. A saved order is used when it names exactly
 * the current groups; otherwise groups sort by name with Untagged last.
 */
export function groupHostsByTag(
  hosts: readonly Host[],
  savedOrder?: readonly string[],
): HostGroup[] {
  const groups = new Map<string, Host[]>();
  for (const host of hosts) {
    const tag = host.tags[0] ?? UNTAGGED;
    groups.set(tag, [...(groups.get(tag) ?? []), host]);
  }
  const tags = [...groups.keys()];
  const saved =
    savedOrder !== undefined &&
    savedOrder.length === tags.length &&
    tags.every((t) => savedOrder.includes(t));
  const order = saved
    ? [...savedOrder]
    : tags.sort((a, b) => Number(a === UNTAGGED) - Number(b === UNTAGGED) || a.localeCompare(b));
  return order.map((tag) => {
    const members = groups.get(tag) ?? [];
    return {
      tag,
      hosts: members,
      counts: {
        online: members.filter((h) => h.status === 'online' || h.status === 'degraded').length,
        offline: members.filter((h) => h.status === 'offline').length,
        error: members.filter((h) => h.status === 'error').length,
      },
    };
  });
}

/** The groupLayouts key of one tag group in one mode. */
export const groupLayoutKey = (tag: string, mode: string) => `${tag}:${mode}`;
