// The body of `startFakeEnginesApart` (fake-engine.ts): starts the engines in this worker
// thread and says when they listen.
import { parentPort, workerData } from 'node:worker_threads';
import { fakeEngineSocket, startFakeEngine } from './fake-engine.ts';

const { count, firstPort, perEngine, prefix, socketDir, running, withPids } = workerData as {
  count: number;
  firstPort: number;
  perEngine: number;
  prefix: string;
  socketDir?: string;
  /** Running containers per engine (all unless told). */
  running?: number;
  /** Containers report init PIDs that fake-host-files.ts has files for. */
  withPids?: boolean;
};
await Promise.all(
  Array.from({ length: count }, (_, i) =>
    startFakeEngine(
      firstPort + i,
      perEngine,
      `${prefix}${i}`,
      socketDir === undefined ? undefined : fakeEngineSocket(socketDir, i),
      running,
      withPids,
    ),
  ),
);
parentPort?.postMessage('ready');
