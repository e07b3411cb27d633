// bench/dashboard: the dashboard with N synthetic hosts × M containers, through the real
// server and live channel (fake engines stand in for Docker; see fake-engine.ts). Prints
// time to first render, frames per second while containers_update arrives every 2 s, and
// the JavaScript the first screen transfers. Needs a build (`npm run build`).
// Usage: node bench/dashboard.ts [hosts=50] [containersPerHost=20] [fpsSeconds=10]
import { statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { openSignedInPage, startBerth } from './berth-process.ts';
import { startFakeEngine } from './fake-engine.ts';
import { summarizeTrace } from './trace-summary.ts';

const HOSTS = Number(process.argv[2] ?? 50);
const PER_HOST = Number(process.argv[3] ?? 20);
const FPS_SECONDS = Number(process.argv[4] ?? 10);
const PORT = 18_710;
const ENGINE_PORT = 19_000;
const DIST = process.env.BERTH_WEB_DIR ?? resolve(import.meta.dirname, '../packages/web/dist');
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

const engines = await Promise.all(
  Array.from({ length: HOSTS }, (_, i) => startFakeEngine(ENGINE_PORT + i, PER_HOST, `h${i}`)),
);
const berth = await startBerth(PORT, {
  BERTH_STATS_SOURCE: process.env.BENCH_STATS ?? 'api',
  ...(process.env.BENCH_LOG_LEVEL ? { BERTH_LOG_LEVEL: process.env.BENCH_LOG_LEVEL } : {}),
});
for (let i = 0; i < HOSTS; i++) {
  await berth.api('/hosts', {
    name: `synthetic-${String(i).padStart(2, '0')}`,
    url: `tcp://127.0.0.1:${ENGINE_PORT + i}`,
    tags: [i % 3 === 0 ? 'prod' : 'staging'],
  });
}
// Wait until every host is online and its containers are listed.
// (Up to a minute: on a loaded machine 50 engines take longer than 20 s to list.)
for (let i = 0; i < 300; i++) {
  const { body } = await berth.api('/containers');
  if (Array.isArray(body) && body.length >= HOSTS * PER_HOST) break;
  await sleep(200);
}

if (process.env.BENCH_VIEW)
  await berth.api('/v2/user/view-mode', { view_mode: process.env.BENCH_VIEW });
const { browser, context, page } = await openSignedInPage(berth);
const cdp = await context.newCDPSession(page);
await cdp.send('Network.enable');
let scriptBytes = 0;
const scripts = new Map<string, string>();
cdp.on('Network.responseReceived', (e) => {
  if (e.type === 'Script') scripts.set(e.requestId, e.response.url);
});
cdp.on('Network.loadingFinished', (e) => {
  if (scripts.has(e.requestId)) scriptBytes += e.encodedDataLength;
});

// The renderer's main-thread time until the first render: steadier than the wall clock on a
// shared two-core machine, and what the page's own code decides.
await cdp.send('Performance.enable');
const taskSeconds = async () =>
  (await cdp.send('Performance.getMetrics')).metrics.find((m) => m.name === 'TaskDuration')
    ?.value ?? 0;
const tasksBefore = await taskSeconds();
// BENCH_TRACE=1: a Chromium trace of the load, summed by kind of work (slows the load a little).
const TRACE = process.env.BENCH_TRACE === '1' ? join(tmpdir(), 'berth-dashboard-trace.json') : null;
if (TRACE !== null)
  await browser.startTracing(page, {
    path: TRACE,
    categories: [
      'devtools.timeline',
      'disabled-by-default-devtools.timeline',
      'v8',
      'blink',
      'loading',
      'toplevel',
    ],
  });
// The page stamps the frame in which every card is there itself (an init script checking once
// a frame): Playwright's waitForFunction would inject its own large script into the page
// while it loads, and that took ~95 ms of the same main thread. Browser-side code is passed as
// text: bench/ is type-checked for Node, not the DOM.
await context.addInitScript({
  content: `(() => {
    const tick = () => {
      if (document.querySelectorAll('[data-testid^="host-card-"]').length >= ${Math.min(HOSTS, 50)})
        window.__berthFirstRender = performance.now();
      else requestAnimationFrame(tick);
    };
    requestAnimationFrame(tick);
  })();`,
});
await page.goto(berth.base + '/', { waitUntil: 'commit' });
let firstRenderMs = 0;
for (const deadline = Date.now() + 30_000; firstRenderMs === 0; await sleep(50)) {
  if (Date.now() > deadline) throw new Error('the host cards were not drawn within 30 s');
  const { result } = await cdp.send('Runtime.evaluate', {
    expression: 'window.__berthFirstRender ?? 0',
    returnByValue: true,
  });
  firstRenderMs = Number(result.value);
}
const firstRenderTaskMs = ((await taskSeconds()) - tasksBefore) * 1000;
const firstScreenScripts = scripts.size;
if (TRACE !== null) await browser.stopTracing();
const timeline = await page.evaluate<string>(`performance.getEntriesByType('resource')
  .filter((e) => e.name.includes('/api/') || e.name.endsWith('.js'))
  .map((e) => new URL(e.name).pathname.replace(/-[A-Za-z0-9_]{8}\\.js$/, '.js') + ' ' + Math.round(e.responseEnd))
  .join(', ')`);
const firstScreenJs = scriptBytes;
const gzipBytes = [...scripts.values()].reduce(
  (sum, url) => sum + statSync(join(DIST, `${new URL(url).pathname}.gz`)).size,
  0,
);

// Frames while live updates stream: count requestAnimationFrame callbacks, and long tasks.
await sleep(3000);
const frames = await page.evaluate<{ count: number; longTasks: number }>(`(async () => {
  let count = 0;
  let longTasks = 0;
  const observer = new PerformanceObserver((list) => (longTasks += list.getEntries().length));
  observer.observe({ entryTypes: ['longtask'] });
  const tick = () => { count++; requestAnimationFrame(tick); };
  requestAnimationFrame(tick);
  await new Promise((r) => setTimeout(r, ${FPS_SECONDS * 1000}));
  observer.disconnect();
  return { count, longTasks };
})()`);

const { body: sample } = await berth.api('/containers');
console.log(`bench/dashboard: ${HOSTS} hosts × ${PER_HOST} containers (synthetic engines)`);
console.log(`  containers listed by the server: ${Array.isArray(sample) ? sample.length : 0}`);
console.log(
  `  first render (navigation to all host cards drawn): ${firstRenderMs.toFixed(0)} ms, of which main-thread tasks ${firstRenderTaskMs.toFixed(0)} ms`,
);
console.log(`  responses (ms after navigation): ${timeline}`);
if (TRACE !== null) {
  const kinds = [...summarizeTrace(TRACE)].sort((a, b) => b[1] - a[1]);
  console.log(
    `  main thread until first render, by kind (ms): ${kinds.map(([k, ms]) => `${k} ${ms.toFixed(0)}`).join(', ')}`,
  );
}
console.log(
  `  frames per second over ${FPS_SECONDS} s of live updates: ${(frames.count / FPS_SECONDS).toFixed(1)} (long tasks: ${frames.longTasks})`,
);
console.log(
  `  JavaScript transferred for the first screen: ${(firstScreenJs / 1024).toFixed(1)} KB in ${firstScreenScripts} files (brotli, as served); ${(gzipBytes / 1024).toFixed(1)} KB gzip`,
);

await browser.close();
berth.stop();
for (const engine of engines) engine.close();
process.exit(0);
