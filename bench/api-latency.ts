// bench/api-latency: how long a page's first reads wait while Berth polls a large fleet. N
// synthetic engines × M containers (fake engines, stats through the Engine API), one watcher
// on the live channel (so stats are read every polling interval, as with a browser open), and
// the reads a signed-in dashboard load asks for at boot, sent together at random moments.
// Prints each read's answer time (p50, p90, p99, max) and the server's CPU. Needs a build.
// Usage: node bench/api-latency.ts [hosts=50] [containersPerHost=20] [seconds=30]
import { addEngineHosts, startBerth, timeAnswer } from './berth-process.ts';
import { startFakeEnginesApart } from './fake-engine.ts';
import { cpuTicks, f1, pct, TICK_HZ } from './figures.ts';

const HOSTS = Number(process.argv[2] ?? 50);
const PER_HOST = Number(process.argv[3] ?? 20);
const SECONDS = Number(process.argv[4] ?? 30);
const PORT = 18_713;
const ENGINE_PORT = 19_300;
const READS = ['/v2/auth/me', '/v2/user/preferences', '/hosts', '/containers'];
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

const engines = await startFakeEnginesApart(HOSTS, ENGINE_PORT, PER_HOST, 'h');
const berth = await startBerth(PORT, { BERTH_STATS_SOURCE: 'api' });
await addEngineHosts(berth, HOSTS, ENGINE_PORT, PER_HOST, (i) => ({ name: `synthetic-${i}` }));
const ws = new WebSocket(`ws://127.0.0.1:${PORT}/ws/?protocol=2`, {
  headers: { cookie: berth.cookie },
});
await sleep(5000); // a few ticks at the full cadence before measuring

const times = new Map<string, number[]>(READS.map((path) => [path, []]));
const pid = berth.child.pid ?? 0;
const cpuBefore = cpuTicks([pid]);
const started = performance.now();
while (performance.now() - started < SECONDS * 1000) {
  await Promise.all(
    READS.map(async (path) => times.get(path)?.push((await timeAnswer(berth, path)).ms)),
  );
  await sleep(100 + Math.random() * 100); // at random moments of the polling interval
}
const cpu = (cpuTicks([pid]) - cpuBefore) / TICK_HZ / ((performance.now() - started) / 1000);

console.log(`bench/api-latency: ${HOSTS} engines × ${PER_HOST} containers, stats via the API`);
for (const [path, ms] of times) {
  const sorted = [...ms].sort((a, b) => a - b);
  console.log(
    `  ${`/api${path}`.padEnd(26)} ${sorted.length} reads: p50 ${f1(pct(sorted, 50))} ms, p90 ${f1(pct(sorted, 90))} ms, p99 ${f1(pct(sorted, 99))} ms, max ${f1(sorted[sorted.length - 1] ?? 0)} ms`,
  );
}
console.log(`  server CPU: ${f1(cpu * 100)} % of a core`);
ws.close();
berth.stop();
await engines.close();
process.exit(0);
