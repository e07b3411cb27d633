// bench/image.ts: Berth's image on this machine's engine. Prints the figures; asserts nothing.
//   node bench/image.ts [runs]                               builds it (scripts/build-image.sh)
//   BERTH_BENCH_IMAGE=berth:local node bench/image.ts [runs]  measures an image already built
// Size and what takes it; `docker run` to /api/health answering and to Docker's own `healthy`,
// on a new volume (first start) and again on the same volume; Berth's idle RSS in the
// container; `docker stop` to exit; what one health probe costs.
import { execFile } from 'node:child_process';
import { readFileSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import { promisify } from 'node:util';
import { f1, machineSpeedMs, pct } from './figures.ts';

const ROOT = resolve(import.meta.dirname, '..');
const SOCKET = '/var/run/docker.sock';
const IDLE_MS = 10_000;
const runs = Number(process.argv[2] ?? 5);
const execFileAsync = promisify(execFile);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const mb = (bytes: number) => f1(bytes / 1e6);

async function sh(cmd: string, args: string[], timeout = 120_000) {
  const { stdout, stderr } = await execFileAsync(cmd, args, {
    cwd: ROOT,
    timeout,
    maxBuffer: 64 * 1024 * 1024,
  });
  return { stdout: stdout.trim(), stderr: stderr.trim() };
}
const docker = async (...args: string[]) => (await sh('docker', args)).stdout;

/** Milliseconds until `probe` holds, polled every `everyMs` (NaN after 60 s). */
async function msUntil(started: number, probe: () => Promise<boolean>, everyMs: number) {
  while (performance.now() - started < 60_000) {
    if (await probe().catch(() => false)) return performance.now() - started;
    await sleep(everyMs);
  }
  return NaN;
}

interface Start {
  readyMs: number;
  healthyMs: number;
}

/** `docker run -d` as compose.yaml runs it, to /api/health answering and to `healthy`. */
async function start(image: string, name: string, volume: string): Promise<Start> {
  const started = performance.now();
  await docker(
    'run', '-d', '--name', name, '-v', `${volume}:/data`, '-v', `${SOCKET}:${SOCKET}`,
    '--group-add', String(statSync(SOCKET).gid), '-p', '127.0.0.1::8080',
    '-e', 'BERTH_ADMIN_PASSWORD=bench-password-1', '--read-only', '--tmpfs', '/tmp',
    '--cap-drop', 'ALL', '--security-opt', 'no-new-privileges:true', image,
  ); // prettier-ignore
  const port = /:(\d+)$/m.exec(await docker('port', name, '8080/tcp'))?.[1] ?? '0';
  const readyMs = await msUntil(
    started,
    async () => (await fetch(`http://127.0.0.1:${port}/api/health`)).ok,
    20,
  );
  const healthyMs = await msUntil(
    started,
    async () => (await docker('inspect', '-f', '{{.State.Health.Status}}', name)) === 'healthy',
    100,
  );
  return { readyMs, healthyMs };
}

/** Resident memory of the container's Node process, read on this machine. */
async function nodeRssMb(name: string): Promise<number> {
  // Node names its main thread, so comm says MainThread: the command line tells.
  const rows = (await docker('top', name, '-eo', 'pid,args')).split('\n').slice(1);
  const pid = /^\s*(\d+)\s+node\s/m.exec(rows.join('\n'))?.[1];
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? NaN) / 1024;
}

async function stopSeconds(name: string): Promise<{ seconds: number; exitCode: string }> {
  const started = performance.now();
  await docker('stop', '--time', '20', name);
  const seconds = (performance.now() - started) / 1000;
  return { seconds, exitCode: await docker('inspect', '-f', '{{.State.ExitCode}}', name) };
}

/** CPU of the image's own health probe (the Node process, not the engine's exec), median. */
async function probeCpuMs(image: string, name: string): Promise<number> {
  const test = JSON.parse(
    await docker('image', 'inspect', '-f', '{{json .Config.Healthcheck.Test}}', image),
  ) as string[];
  const costs: number[] = [];
  for (let i = 0; i < 10; i++) {
    const { stderr } = await sh('docker', [
      'exec', name, 'bash', '-c', 'time -p "$@"', '_', ...test.slice(1),
    ]); // prettier-ignore
    const cpu = (field: string) =>
      Number(new RegExp(`^${field} ([\\d.]+)$`, 'm').exec(stderr)?.[1]);
    costs.push((cpu('user') + cpu('sys')) * 1000);
  }
  return pct(costs, 50);
}

async function sizes(image: string): Promise<void> {
  const total = Number(await docker('image', 'inspect', '-f', '{{.Size}}', image));
  console.log(`image ${image}: ${mb(total)} MB uncompressed`);
  const du = async (paths: string) =>
    (await docker(
        'run', '--rm', '--entrypoint', 'sh', image, '-c', `du -s --apparent-size -B1 ${paths} | sort -rn`,
      )) // prettier-ignore
      .split('\n')
      .map((line) => line.split('\t'))
      .map(([bytes, path]) => `  ${mb(Number(bytes)).padStart(6)} MB  ${path}`);
  console.log('the biggest parts:');
  const parts = '/usr/local/bin/node /usr/lib /usr/bin /usr/sbin /usr/share /etc /var /app/*';
  console.log((await du(parts)).join('\n'));
  console.log('the biggest packages in /app/node_modules:');
  const packages = '/app/node_modules/*/ /app/node_modules/@*/*/';
  console.log((await du(packages)).slice(0, 8).join('\n'));
}

const given = process.env.BERTH_BENCH_IMAGE;
const image = given ?? `berth-bench/berth:${process.pid}`;
const made: { containers: string[]; volumes: string[] } = { containers: [], volumes: [] };
try {
  console.log(`machine speed ${f1(machineSpeedMs())} ms (bench/figures), ${runs} runs`);
  if (given === undefined) {
    const { stderr } = await sh('bash', ['scripts/build-image.sh', image], 30 * 60_000);
    console.log(stderr.split('\n').at(-1));
  }
  await sizes(image);
  const cold: Start[] = [];
  const warm: Start[] = [];
  const rss: number[] = [];
  const stops: number[] = [];
  let probeMs = NaN;
  for (let i = 0; i < runs; i++) {
    const volume = `berth-bench-${process.pid}-${i}`;
    made.volumes.push(volume);
    for (const [kind, list] of [['cold', cold] as const, ['warm', warm] as const]) {
      const name = `${volume}-${kind}`;
      made.containers.push(name);
      list.push(await start(image, name, volume));
      if (kind === 'cold') {
        await sleep(IDLE_MS);
        rss.push(await nodeRssMb(name));
        if (i === 0) probeMs = await probeCpuMs(image, name);
      }
      const stop = await stopSeconds(name);
      stops.push(stop.seconds);
      if (stop.exitCode !== '0') console.log(`  ${name} exited ${stop.exitCode}`);
    }
  }
  const line = (xs: Start[], key: keyof Start) =>
    `median ${f1(
      pct(
        xs.map((x) => x[key] / 1000),
        50,
      ),
    )} s (max ${f1(Math.max(...xs.map((x) => x[key] / 1000)))})`;
  console.log(`docker run -> /api/health answers, new volume:  ${line(cold, 'readyMs')}`);
  console.log(`docker run -> /api/health answers, same volume: ${line(warm, 'readyMs')}`);
  console.log(`docker run -> Docker's healthy, new volume:     ${line(cold, 'healthyMs')}`);
  console.log(`docker run -> Docker's healthy, same volume:    ${line(warm, 'healthyMs')}`);
  console.log(
    `idle RSS of Berth's node process, ${IDLE_MS / 1000} s after ready: median ${f1(pct(rss, 50))} MB (max ${f1(Math.max(...rss))})`,
  );
  console.log(
    `docker stop -> exited: median ${f1(pct(stops, 50))} s (max ${f1(Math.max(...stops))}), ${stops.length} stops`,
  );
  console.log(`one health probe: ${f1(probeMs)} ms CPU in the container (median of 10)`);
  console.log('targets: <= 300 MB, run to healthy <= 3 s, idle RSS < 120 MB, stop <= 10 s');
} finally {
  for (const name of made.containers) await docker('rm', '-f', name).catch(() => undefined);
  for (const volume of made.volumes) await docker('volume', 'rm', volume).catch(() => undefined);
  if (given === undefined) await sh('bash', ['scripts/build-image.sh', '--remove', image]);
}
