import type { Container } from '@berth/contracts';
import { useState } from 'react';
import { containerKeyOf } from '@berth/contracts';
import { useLiveMessages } from '@/lib/live/live-provider';

/** The stages after which an update no longer holds its container. */
export const isFinalUpdateStage = (stage: string) =>
  stage === 'completed' || stage === 'rolled_back' || stage === 'failed';

/**
 * Whether an update of this container is running, from its live progress. The server refuses
 * power actions meanwhile (a start of the stopped previous container would undo the update).
 * The answer belongs to one container: a component shown for another one starts at false.
 */
export function useUpdateRunning(c: Pick<Container, 'host_id' | 'id'>): boolean {
  const key = containerKeyOf(c);
  const [runningFor, setRunningFor] = useState<string | null>(null);
  useLiveMessages('container_update_progress', ({ data }) => {
    if (data.host_id !== c.host_id || data.container_id !== c.id) return;
    setRunningFor(isFinalUpdateStage(data.stage) ? null : key);
  });
  return runningFor === key;
}
