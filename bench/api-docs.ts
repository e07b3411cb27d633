// bench/api-docs: what the API reference costs a built server. Idle resident memory, then the
// first and a later GET of /api/openapi.json and of /api/docs/scalar.js (as a browser asks:
// brotli), each with the resident memory after it. Prints the figures; asserts nothing.
// Run after `npm run build`:
//   node bench/api-docs.ts [runs] [port]
import { readFileSync } from 'node:fs';
import { startBerth } from './berth-process.ts';

const runs = Number(process.argv[2] ?? 3);
const port = Number(process.argv[3] ?? 18790);
const IDLE_MS = 5000;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function residentMb(pid: number | undefined): number {
  if (pid === undefined) return NaN;
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? NaN) / 1024;
}

/** One GET as a browser makes it: the time until the last byte, and the bytes sent (brotli). */
async function timed(base: string, path: string, cookie: string) {
  const started = performance.now();
  const res = await fetch(`${base}${path}`, { headers: { cookie, 'accept-encoding': 'br' } });
  await res.arrayBuffer();
  if (!res.ok) throw new Error(`${path} answered ${res.status}`);
  return { ms: performance.now() - started, bytes: Number(res.headers.get('content-length')) };
}

const fmt = (n: number, digits = 0) => n.toFixed(digits);

for (let run = 1; run <= runs; run++) {
  const berth = await startBerth(port);
  try {
    await sleep(IDLE_MS);
    const pid = berth.child.pid;
    const line: string[] = [`run ${run}: idle ${fmt(residentMb(pid), 1)} MB`];
    for (const path of ['/api/openapi.json', '/api/docs/scalar.js']) {
      const first = await timed(berth.base, path, berth.cookie);
      const again = await timed(berth.base, path, berth.cookie);
      line.push(
        `${path} first ${fmt(first.ms)} ms, again ${fmt(again.ms, 1)} ms, ` +
          `${fmt(again.bytes / 1024)} KiB, then ${fmt(residentMb(pid), 1)} MB`,
      );
    }
    console.log(line.join('; '));
  } finally {
    berth.stop();
  }
  await sleep(500);
}
