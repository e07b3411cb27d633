import { CONTAINER_STAT_FIELDS, containerSchema, type Container } from '@berth/contracts';

/**
 * Fields a live message changes for every running container on every pass (stats), or every
 * minute (the engine's "Up 5 minutes" status text). Which rows the table shows, and in what
 * order, depends on none of them unless it is sorted by a stats column.
 */
export const LIVE_FIELDS: ReadonlySet<string> = new Set<string>([
  ...CONTAINER_STAT_FIELDS,
  'status',
]);
/** What changes and still leaves the order alone when the table is sorted by stats. */
export const STATUS_FIELD: ReadonlySet<string> = new Set(['status']);

/** Whether `a` and `b` hold the same `fields` (every field of a container is required). */
function same(a: Container, b: Container, fields: readonly (keyof Container)[]): boolean {
  // By identity: both writers of the list keep unchanged values the same objects.
  for (const f of fields) if (a[f] !== b[f]) return false;
  return true;
}

/**
 * A `select` for the containers list that hands back the list it returned before while the
 * new one has the same containers in the same order, changed only in `ignored` fields. The
 * list it returns then holds records older than the cache's, so whoever draws those fields
 * reads them live (`useLiveContainer`); in exchange a live message that changed only stats
 * does not filter, sort and lay out 1,000 rows again for the one in view that changed
 * (bench/containers). One selector per screen: it keeps that screen's last list.
 */
export function steadyContainers(ignored: ReadonlySet<string>): (next: Container[]) => Container[] {
  const fields = (Object.keys(containerSchema.shape) as (keyof Container)[]).filter(
    (f) => !ignored.has(f),
  );
  let last: Container[] | undefined;
  return (next) => {
    const kept = last;
    if (kept === undefined || kept.length !== next.length) return (last = next);
    for (let i = 0; i < next.length; i++) {
      const a = kept[i] as Container;
      const b = next[i] as Container;
      if (a !== b && !same(a, b, fields)) return (last = next);
    }
    return kept;
  };
}
