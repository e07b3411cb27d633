// The rig's engines for benchmarks that need real Docker (`bash scripts/engines.sh up`),
// with the containers a benchmark makes (label berth-bench=1) and a Berth watching them.
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { startBerth, type BerthProcess } from './berth-process.ts';

const run = promisify(execFile);

export interface Engine {
  name: string;
  url: string;
  socket: string;
  tls?: { ca: string; cert: string; key: string };
}

export const rig = JSON.parse(
  readFileSync(join(process.env.BERTH_RIG_DIR ?? '/tmp/berth-rig', 'engines.json'), 'utf8'),
) as { engines: Engine[]; images: { busybox: string } };

export const BENCH_LABEL = 'berth-bench=1';

/** Runs the docker CLI against one engine. */
export const docker = (e: Engine, args: string[]) =>
  run('docker', ['-H', e.socket, ...args], { maxBuffer: 1 << 26 });

/** Runs `jobs` with `width` of them in flight at once. */
export async function inParallel(jobs: (() => Promise<unknown>)[], width: number): Promise<void> {
  const queue = [...jobs];
  const worker = async () => {
    for (let job = queue.shift(); job !== undefined; job = queue.shift()) await job();
  };
  await Promise.all(Array.from({ length: width }, worker));
}

/** Removes every container a benchmark made on every engine. */
export async function removeBenchContainers(): Promise<void> {
  for (const e of rig.engines) {
    const ids = (await docker(e, ['ps', '-aq', '--filter', `label=${BENCH_LABEL}`])).stdout
      .split('\n')
      .filter(Boolean);
    for (let i = 0; i < ids.length; i += 50) await docker(e, ['rm', '-f', ...ids.slice(i, i + 50)]);
  }
}

/** A Berth on `port` with every rig engine added as a host named bench-{engine}. */
export async function startBerthWithRig(port: number): Promise<BerthProcess> {
  const berth = await startBerth(port);
  for (const e of rig.engines) {
    const tls = e.tls
      ? {
          tls_ca: readFileSync(e.tls.ca, 'utf8'),
          tls_cert: readFileSync(e.tls.cert, 'utf8'),
          tls_key: readFileSync(e.tls.key, 'utf8'),
        }
      : {};
    await berth.api('/hosts', { name: `bench-${e.name}`, url: e.url, ...tls });
  }
  return berth;
}

export { f1, pct } from './figures.ts';

export type BenchKind = 'running' | 'created' | 'exited';

/** Makes `count` bench containers of `kind` on engine `e` (those already there count). */
export async function ensureBenchContainers(e: Engine, count: number, kind: BenchKind) {
  const kindLabel = `berth-bench-kind=${kind}`;
  const have = (await docker(e, ['ps', '-aq', '--filter', `label=${kindLabel}`])).stdout
    .split('\n')
    .filter(Boolean).length;
  const image = ['--label', BENCH_LABEL, '--label', kindLabel, '--stop-timeout', '1'];
  const args = {
    running: ['run', '-d', ...image, rig.images.busybox, 'sleep', '36000'],
    created: ['create', ...image, rig.images.busybox, 'sleep', '36000'],
    exited: ['run', '-d', ...image, rig.images.busybox, 'true'],
  }[kind];
  const missing = Math.max(0, count - have);
  await inParallel(
    Array.from({ length: missing }, () => () => docker(e, args)),
    6,
  );
}
