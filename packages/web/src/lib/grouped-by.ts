/**
 * Groups a list by a key once per list: every reader of the same answer (fifty dashboard cards,
 * every table cell) shares one grouping, and a new answer (a new array) gets a new one.
 */
export function groupedBy<T>(
  keyOf: (item: T) => string,
): (list: readonly T[]) => ReadonlyMap<string, T[]> {
  const groupings = new WeakMap<readonly T[], Map<string, T[]>>();
  return (list) => {
    let groups = groupings.get(list);
    if (groups === undefined) {
      groups = new Map();
      for (const item of list) {
        const key = keyOf(item);
        const group = groups.get(key);
        if (group === undefined) groups.set(key, [item]);
        else group.push(item);
      }
      groupings.set(list, groups);
    }
    return groups;
  };
}
