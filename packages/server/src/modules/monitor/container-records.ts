import { containerKey } from '@berth/contracts';
import type { EventInput } from '../events/index.js';
import type { EngineContainer } from './engine-container.js';
import type { EngineEvent, EventMeaning } from './engine-events.js';

// What the event log keeps of the engine's container events and of the drift a resync finds.

interface HostRef {
  id: string;
  name: string;
}

/** The log entry of one engine event about a container. */
export function engineEventRecord(
  host: HostRef,
  ev: EngineEvent,
  meaning: EventMeaning,
  container: { id: string; name: string; oldState: string | null; newState: string | null },
): EventInput {
  return {
    severity: meaning.severity,
    category: 'container',
    event_type: meaning.event_type,
    title: meaning.title,
    message: meaning.message,
    host_id: host.id,
    host_name: host.name,
    container_id: containerKey(host.id, container.id),
    container_name: container.name,
    old_state: container.oldState,
    new_state: container.newState,
    triggered_by: 'engine',
    timestamp: new Date(ev.timeNano / 1e6).toISOString(),
  };
}

/** State changes the replayed events did not explain (the engine's event buffer is finite). */
export function driftRecords(
  host: HostRef,
  before: Iterable<[string, { name: string; state: string }]>,
  after: ReadonlyMap<string, Readonly<EngineContainer>>,
): EventInput[] {
  const records: EventInput[] = [];
  for (const [id, was] of before) {
    const now = after.get(id);
    if (now?.state === was.state) continue;
    records.push({
      severity: 'info',
      category: 'container',
      event_type: 'state_change',
      title: `Container ${now ? 'State Changed' : 'Removed'}: ${was.name}`,
      message: 'Detected after reconnecting to the engine',
      host_id: host.id,
      host_name: host.name,
      container_id: containerKey(host.id, id),
      container_name: was.name,
      old_state: was.state,
      new_state: now?.state ?? 'removed',
      triggered_by: 'engine',
    });
  }
  return records;
}
