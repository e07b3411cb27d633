import {
  parseContainerKey,
  type ContainersUpdate,
  type LiveContainersState,
  type SeriesDelta,
} from '@berth/contracts';
import type { LiveScope } from '../../platform/live-scope.js';

// containers_update for a scoped user: every part of the message is keyed by host id or by
// container key, so the message for a scope is the message with the other hosts left out. The
// delta of the scoped states is the scoped delta, as long as the scope's reach stays the same
// between two messages (when it changes, the hub sends the client a full state again).

/** A host check that asks the scope once per host per message. */
function reachOf(scope: LiveScope): (hostId: string) => boolean {
  const seen = new Map<string, boolean>();
  return (hostId) => {
    let reached = seen.get(hostId);
    if (reached === undefined) seen.set(hostId, (reached = scope.reaches(hostId)));
    return reached;
  };
}

const keyReached = (reach: (hostId: string) => boolean) => (key: string) => {
  const parsed = parseContainerKey(key);
  return parsed !== null && reach(parsed.hostId);
};

function pick<V>(record: Record<string, V>, keep: (key: string) => boolean): Record<string, V> {
  const out: Record<string, V> = {};
  for (const key in record) if (keep(key)) out[key] = record[key] as V;
  return out;
}

function scopedSeries(delta: SeriesDelta, keep: (key: string) => boolean): SeriesDelta {
  return {
    tails: delta.tails.filter((t) => keep(t[0])),
    set: pick(delta.set, keep),
    removed: delta.removed.filter(keep),
  };
}

/** The containers_update (full or delta) with only the hosts the scope reaches. */
export function scopedUpdate(update: ContainersUpdate, scope: LiveScope): ContainersUpdate {
  const reach = reachOf(scope);
  const byKey = keyReached(reach);
  return {
    ...update,
    containers: update.containers.filter((c) => reach(c.host_id)),
    removed: update.removed.filter(byKey),
    changed: update.changed.filter((c) => byKey(c.key)),
    stats: pick(update.stats, reach),
    host_metrics: pick(update.host_metrics, reach),
    host_sparklines: scopedSeries(update.host_sparklines, reach),
    container_sparklines: pick(update.container_sparklines, reach),
  };
}

/** The whole live state with only the hosts the scope reaches (the spec's containers_update). */
export function scopedState(state: LiveContainersState, scope: LiveScope): LiveContainersState {
  const reach = reachOf(scope);
  return {
    seq: state.seq,
    containers: state.containers.filter((c) => reach(c.host_id)),
    host_metrics: pick(state.host_metrics, reach),
    host_sparklines: pick(state.host_sparklines, reach),
    container_sparklines: pick(state.container_sparklines, keyReached(reach)),
  };
}
