// bench/startup: cold start to the first successful GET /api/health, and resident memory
// once idle. Prints the figures; asserts nothing. Run after `npm run build`:
//   node bench/startup.ts [runs]
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const ROOT = resolve(import.meta.dirname, '..');
const MAIN = join(ROOT, 'packages/server/dist/main.js');
const runs = Number(process.argv[2] ?? 5);
const IDLE_MS = 5000;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function residentMb(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? NaN);
  return kb / 1024;
}

async function once(port: number, dataDir: string): Promise<{ readyMs: number; rssMb: number }> {
  const started = performance.now();
  // The same V8 flags as scripts/start.sh and `npm start`.
  const child = spawn(process.execPath, ['--max-semi-space-size=2', MAIN], {
    env: {
      ...process.env,
      BERTH_PORT: String(port),
      BERTH_HOST: '127.0.0.1',
      BERTH_DATA_DIR: dataDir,
      BERTH_ADMIN_PASSWORD: 'bench-password-1',
      BERTH_LOG_LEVEL: 'warn',
    },
    stdio: 'ignore',
  });
  let readyMs = NaN;
  while (performance.now() - started < 20_000) {
    try {
      if ((await fetch(`http://127.0.0.1:${port}/api/health`)).ok) {
        readyMs = performance.now() - started;
        break;
      }
    } catch {
      // not listening yet
    }
    await sleep(10);
  }
  await sleep(IDLE_MS);
  const pid = child.pid;
  const rssMb = pid === undefined ? NaN : residentMb(pid);
  const exited = new Promise((r) => child.once('exit', r));
  child.kill('SIGTERM');
  await exited;
  return { readyMs, rssMb };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? NaN;

const cold: { readyMs: number; rssMb: number }[] = [];
const warm: { readyMs: number; rssMb: number }[] = [];
for (let i = 0; i < runs; i++) {
  const dataDir = mkdtempSync(join(tmpdir(), 'berth-bench-'));
  cold.push(await once(18_400 + i, dataDir)); // empty database: migrations + admin bootstrap
  warm.push(await once(18_500 + i, dataDir)); // existing database
  rmSync(dataDir, { recursive: true, force: true });
}
const fmt = (xs: { readyMs: number; rssMb: number }[]) =>
  `ready median ${median(xs.map((x) => x.readyMs)).toFixed(0)} ms (max ${Math.max(...xs.map((x) => x.readyMs)).toFixed(0)}), ` +
  `idle RSS median ${median(xs.map((x) => x.rssMb)).toFixed(1)} MB (max ${Math.max(...xs.map((x) => x.rssMb)).toFixed(1)})`;
console.log(`node ${process.version}, ${runs} runs, RSS read ${IDLE_MS / 1000} s after ready`);
console.log(`cold start (new data dir):      ${fmt(cold)}`);
console.log(`warm start (existing data dir): ${fmt(warm)}`);
console.log('targets: ready < 1500 ms, RSS < 120 MB');
