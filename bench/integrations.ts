// bench/integrations: what Prometheus's /metrics costs with 1,000 containers. Ten synthetic
// engines of 100 running containers each (a worker thread of their own, so their work is not
// counted as Berth's); the export on, 127.0.0.1 allowed to scrape without a key.
// Prints the scrape's p95 (uncompressed, and gzip as Prometheus asks for it), the body's size,
// Berth's CPU per scrape and what one scrape every 15 s adds as a share of a core; then, in
// this process, the fleet's text written by hand against the same series through prom-client
// gauges (the choice of decision 026). Needs a build (`npm run build`). Asserts nothing.
// Usage: node bench/integrations.ts [containers=1000] [scrapes=300]
import { createRequire } from 'node:module';
import { request, Agent } from 'node:http';
import { join, resolve } from 'node:path';
import { startBerth, addEngineHosts } from './berth-process.ts';
import { startFakeEnginesApart } from './fake-engine.ts';
import { cpuTicks, f1, machineSpeedMs, pct, TICK_HZ } from './figures.ts';

const CONTAINERS = Number(process.argv[2] ?? 1000);
const SCRAPES = Number(process.argv[3] ?? 300);
const ENGINES = 10;
const PER_ENGINE = Math.ceil(CONTAINERS / ENGINES);
const PORT = 18_961;
const ENGINE_PORT = 19_720;
const SCRAPE_EVERY_S = 15;
const ROOT = resolve(import.meta.dirname, '..');
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

const engines = await startFakeEnginesApart(ENGINES, ENGINE_PORT, PER_ENGINE, 'prom');
const berth = await startBerth(PORT);
await addEngineHosts(berth, ENGINES, ENGINE_PORT, PER_ENGINE, (i) => ({ name: `prom-${i}` }));
await berth.api(
  '/integrations/prometheus',
  { enabled: true, allowed_addresses: ['127.0.0.1'] },
  'PUT',
);
const pid = berth.child.pid ?? 0;

const keepAlive = new Agent({ keepAlive: true });
/** One scrape as Prometheus makes it (gzip when `gzip`), timed to the last byte. */
function scrape(gzip: boolean): Promise<{ ms: number; bytes: number; text: string }> {
  return new Promise((done, fail) => {
    const start = performance.now();
    const headers = gzip ? { 'accept-encoding': 'gzip' } : {};
    const req = request(`${berth.base}/metrics`, { agent: keepAlive, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const body = Buffer.concat(chunks);
        if (res.statusCode !== 200) fail(new Error(`/metrics answered ${res.statusCode}`));
        done({
          ms: performance.now() - start,
          bytes: body.length,
          text: gzip ? '' : body.toString(),
        });
      });
      res.on('error', fail);
    });
    req.on('error', fail);
    req.end();
  });
}

// Stats samples for every container before measuring: each running one has its CPU series.
let text = '';
for (let i = 0; i < 120; i++) {
  text = (await scrape(false)).text;
  if ((text.match(/^berth_container_cpu_percent\{/gm) ?? []).length >= CONTAINERS) break;
  await sleep(500);
}
const series = text.split('\n').filter((l) => l !== '' && !l.startsWith('#')).length;
const cpuSeries = (text.match(/^berth_container_cpu_percent\{/gm) ?? []).length;
for (let i = 0; i < 30; i++) await scrape(false);

/** Scrape times (ms) of SCRAPES scrapes one after another, and the last body's size. */
async function timeScrapes(gzip: boolean): Promise<{ ms: number[]; bytes: number }> {
  const ms: number[] = [];
  let bytes = 0;
  for (let i = 0; i < SCRAPES; i++) {
    const r = await scrape(gzip);
    ms.push(r.ms);
    bytes = r.bytes;
  }
  return { ms, bytes };
}
const { ms: plain, bytes } = await timeScrapes(false);
const { ms: gzipped, bytes: gzipBytes } = await timeScrapes(true);

// CPU: Berth's own ticks while idle (the monitor polling 1,000 containers) against a run of
// back-to-back gzip scrapes, the idle rate taken off.
const IDLE_S = 20;
let ticks = cpuTicks([pid]);
let started = performance.now();
await sleep(IDLE_S * 1000);
const idlePerS = (cpuTicks([pid]) - ticks) / TICK_HZ / ((performance.now() - started) / 1000);
const CPU_SCRAPES = 200;
ticks = cpuTicks([pid]);
started = performance.now();
for (let i = 0; i < CPU_SCRAPES; i++) await scrape(true);
const wallS = (performance.now() - started) / 1000;
const scrapeCpuS = Math.max(0, (cpuTicks([pid]) - ticks) / TICK_HZ - idlePerS * wallS);
const perScrapeMs = (scrapeCpuS / CPU_SCRAPES) * 1000;

console.log(
  `bench/integrations: ${CONTAINERS} running containers on ${ENGINES} engines, machine speed ${machineSpeedMs().toFixed(0)} ms`,
);
console.log(
  `  /metrics: ${series} series (${cpuSeries} with CPU figures), body ${(bytes / 1024).toFixed(0)} KiB, gzip ${(gzipBytes / 1024).toFixed(0)} KiB`,
);
console.log(
  `  scrape time: p50 ${f1(pct(plain, 50))} ms, p95 ${f1(pct(plain, 95))} ms (gzip: p50 ${f1(pct(gzipped, 50))} ms, p95 ${f1(pct(gzipped, 95))} ms), ${SCRAPES} scrapes each`,
);
console.log(
  `  Berth CPU: ${f1(perScrapeMs)} ms per scrape (idle ${f1(idlePerS * 100)} % of a core taken off); one scrape every ${SCRAPE_EVERY_S} s adds ${((perScrapeMs / (SCRAPE_EVERY_S * 1000)) * 100).toFixed(2)} % of a core`,
);

berth.stop();
await engines.close();

// The same fleet written by hand and through prom-client gauges with labels, in this process.
const dist = (path: string) => join(ROOT, 'packages/server/dist', path);
const { fleetExposition } = (await import(
  dist('modules/metrics-export/fleet-metrics.js')
)) as typeof import('../packages/server/src/modules/metrics-export/fleet-metrics.ts');
const promClient = createRequire(join(ROOT, 'packages/server/package.json'))(
  'prom-client',
) as typeof import('prom-client');
const reading = {
  hosts: Array.from({ length: ENGINES }, (_, i) => ({
    id: `h${i}`,
    name: `prom-${i}`,
    status: 'online' as const,
    connection: 'tcp' as const,
  })),
  containers: Array.from({ length: CONTAINERS }, (_, i) => ({
    hostId: `h${i % ENGINES}`,
    hostName: `prom-${i % ENGINES}`,
    name: `prom-svc-${i}`,
    image: 'synthetic/app:1',
    state: 'running' as const,
    health: null,
    labels: { 'com.docker.compose.project': `stack-${i % 40}` },
    restartCount: 0,
    updateAvailable: false,
    stats: { cpuPercent: 1.5, memoryBytes: 5e7, memoryLimitBytes: 1e9, rxBytes: 1e6, txBytes: 2e6 },
  })),
  alerts: [],
  outbox: {},
  eventsStored: 0,
  liveSockets: 0,
};
const registry = new promClient.Registry();
const labelNames = ['host', 'container', 'image', 'compose_project'];
const gauges = [
  'up',
  'cpu_percent',
  'memory_usage_bytes',
  'memory_limit_bytes',
  'rx',
  'tx',
  'restarts',
  'update',
].map(
  (n) => new promClient.Gauge({ name: `bench_${n}`, help: n, labelNames, registers: [registry] }),
);
async function viaPromClient(): Promise<number> {
  for (const g of gauges) g.reset(); // no stale series: every scrape starts empty
  for (const c of reading.containers) {
    const labels = {
      host: c.hostName,
      container: c.name,
      image: c.image,
      compose_project: c.labels['com.docker.compose.project'],
    };
    for (const g of gauges) g.set(labels, c.stats.cpuPercent);
  }
  return (await registry.metrics()).length;
}
const time = async (f: () => unknown) => {
  const ms: number[] = [];
  for (let i = 0; i < 60; i++) {
    const start = performance.now();
    await f();
    ms.push(performance.now() - start);
  }
  return pct(ms.slice(10), 50);
};
console.log(
  `  the fleet's text, in-process median: by hand ${f1(await time(() => fleetExposition(reading)))} ms, prom-client gauges ${f1(await time(viaPromClient))} ms`,
);
process.exit(0);
