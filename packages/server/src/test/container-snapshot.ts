import type { ContainerSnapshot } from '../modules/monitor/index.js';

/**
 * Container number `n` as the monitor holds it, for what reads the fleet's picture without an
 * engine (unit tests, benches): ids from `n`, a running busybox with nothing else set, and
 * `more` on top.
 */
export function containerSnapshot(n: number, more: Partial<ContainerSnapshot>): ContainerSnapshot {
  const id = n.toString(16).padStart(12, '0');
  return {
    fullId: id.padEnd(64, '0'),
    id,
    name: `container-${n}`,
    image: 'busybox',
    state: 'running',
    health: null,
    exitCode: null,
    created: null,
    startedAt: null,
    finishedAt: null,
    restartPolicy: 'no',
    stopSignal: null,
    autoRemove: false,
    ports: [],
    volumes: [],
    env: {},
    labels: {},
    pid: 0,
    restartCount: 0,
    hostId: 'h1',
    hostName: 'h1',
    ...more,
  };
}
