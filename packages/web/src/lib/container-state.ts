import type { Container } from '@berth/contracts';

const LABELS: Partial<Record<Container['state'], string>> = {
  running: 'Running',
  stopped: 'Exited',
  exited: 'Exited',
  created: 'Created',
  paused: 'Paused',
  restarting: 'Restarting',
  removing: 'Removing',
  dead: 'Dead',
};

/** The state's label; unknown states read Exited. */
export const stateLabel = (c: Container) =>
  c.desired_state === 'should_run' && c.state !== 'running' && c.state !== 'restarting'
    ? 'Stopped (Should Run)'
    : (LABELS[c.state] ?? 'Exited');

/** A container that should run but is down is flagged. */
export const shouldBeRunning = (c: Container) =>
  c.desired_state === 'should_run' && c.state !== 'running' && c.state !== 'restarting';

export const SHOULD_RUN_FLAG = 'Should be running but is exited!';
