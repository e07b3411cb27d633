import type { Container } from '@berth/contracts';
import { hashKey, useQueryClient } from '@tanstack/react-query';
import { useCallback, useRef, useSyncExternalStore } from 'react';
import { containerKeyOf } from '@berth/contracts';
import { liveContainersQueryOptions, type ContainersData } from '@/lib/queries';

/** Containers by key, built once per list (a live message makes one list). */
const indexes = new WeakMap<Container[], Map<string, Container>>();
function indexOf(list: Container[]): Map<string, Container> {
  let index = indexes.get(list);
  if (index === undefined) {
    index = new Map(list.map((c) => [containerKeyOf(c), c]));
    indexes.set(list, index);
  }
  return index;
}

const ENTRY_HASH = hashKey(liveContainersQueryOptions().queryKey);

/**
 * The cached record of `container` as the latest live message left it, or `container` itself
 * while the cache has none (removed, not loaded). A row drawn from a list that is only
 * renewed when rows come, go or move (`steadyContainers`) reads its stats through this, and
 * draws again when its own record changes. It reads the cache without observing the query:
 * a row never fetches, and a thousand rows scrolling by never start a refetch.
 */
export function useLiveContainer(container: Container): Container {
  const queryClient = useQueryClient();
  const key = containerKeyOf(container);
  // Where the record was last found: a live message keeps the order, so the same place
  // finds it again without a map of every container (built anew for each message's list).
  const at = useRef(-1);
  const subscribe = useCallback(
    (changed: () => void) =>
      queryClient.getQueryCache().subscribe((event) => {
        if (event.type === 'updated' && event.query.queryHash === ENTRY_HASH) changed();
      }),
    [queryClient],
  );
  const read = () => {
    // By hash, a map lookup: `getQueryData` hashes the key again on every call.
    const list = queryClient.getQueryCache().get<ContainersData>(ENTRY_HASH)?.state
      .data?.containers;
    if (list === undefined) return container;
    const there = list[at.current];
    if (there !== undefined && there.id === container.id && there.host_id === container.host_id)
      return there;
    const found = indexOf(list).get(key);
    if (found === undefined) return container;
    at.current = list.indexOf(found);
    return found;
  };
  return useSyncExternalStore(subscribe, read, read);
}
