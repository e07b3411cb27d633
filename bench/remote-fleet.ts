// bench/remote-fleet: Berth watching N synthetic remote engines × M containers, their stats
// read over the Engine API as for any engine whose cgroup files Berth cannot see (fake
// engines stand in for Docker; see fake-engine.ts). Nobody is signed in, so the monitor
// polls at its idle cadence. Prints the server's CPU, and how long a small API answer
// takes when asked every 5 ms: its tail shows how long the monitor's work holds requests.
// Needs a server build (`npm run build`).
// Usage: node bench/remote-fleet.ts [hosts=50] [containersPerHost=20] [seconds=40]
import { addEngineHosts, startBerth, timeAnswer } from './berth-process.ts';
import { startFakeEnginesApart } from './fake-engine.ts';
import { cpuTicks, f1, pct, TICK_HZ } from './figures.ts';

const HOSTS = Number(process.argv[2] ?? 50);
const PER_HOST = Number(process.argv[3] ?? 20);
const SECONDS = Number(process.argv[4] ?? 40);
const PORT = 18_720;
const ENGINE_PORT = 19_100;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

const engines = await startFakeEnginesApart(HOSTS, ENGINE_PORT, PER_HOST, 'r');
const berth = await startBerth(PORT, {
  BERTH_STATS_SOURCE: 'api',
  ...(process.env.BENCH_PROF
    ? { NODE_OPTIONS: '--cpu-prof --cpu-prof-dir=/tmp/prof --cpu-prof-interval=500' }
    : {}),
});
await addEngineHosts(berth, HOSTS, ENGINE_PORT, PER_HOST, (i) => ({ name: `remote-${i}` }));
await sleep(3000); // the first passes, which also list every container, are over

const pid = berth.child.pid ?? 0;
/** The server's CPU over a window without requests; then the answers' times in another. */
async function measure(who: string): Promise<void> {
  const ticksBefore = cpuTicks([pid]);
  await sleep(SECONDS * 1000);
  const cpu = ((cpuTicks([pid]) - ticksBefore) / TICK_HZ / SECONDS) * 100;
  const ms: number[] = [];
  const started = performance.now();
  while (performance.now() - started < SECONDS * 1000) {
    ms.push((await timeAnswer(berth, '/v2/auth/me')).ms);
    await sleep(5);
  }
  const over = (limit: number) => ms.filter((m) => m > limit).length;
  console.log(`  ${who}: Berth CPU ${f1(cpu)} % of one core over ${SECONDS} s;`);
  console.log(
    `    GET /api/v2/auth/me every 5 ms (${ms.length} answers): p50 ${f1(pct(ms, 50))} ms, p99 ${f1(pct(ms, 99))} ms, p99.9 ${f1(pct(ms, 99.9))} ms, max ${f1(Math.max(...ms))} ms; over 50 ms: ${over(50)}, over 100 ms: ${over(100)}`,
  );
}

console.log(`bench/remote-fleet: ${HOSTS} engines × ${PER_HOST} containers, stats over the API`);
await measure('nobody signed in (the idle cadence)');
// A signed-in page's live channel, opened as Berth's browser opens it: the monitor polls at the
// settings' interval while one is open.
// (Node's WebSocket takes headers beside the protocols, unlike a browser's.)
const live = new WebSocket(`${berth.base.replace('http', 'ws')}/ws?protocol=2`, {
  headers: { cookie: berth.cookie },
});
await new Promise((resolve, reject) => {
  live.onopen = resolve;
  live.onerror = reject;
});
await sleep(3000);
await measure('one browser watching (the polling interval)');
live.close();
berth.stop();
await engines.close();
process.exit(0);
