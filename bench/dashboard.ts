// bench/dashboard: the dashboard with N synthetic hosts × M containers, through the real
// server and live channel (fake engines stand in for Docker; see fake-engine.ts). Prints
// time to first render, frames per second while containers_update arrives every 2 s, and
// the JavaScript the first screen transfers. Needs a build (`npm run build`).
// Each load opens a fresh browser context (nothing cached: no scripts, no compiled code) in
// one running browser, as a user's browser is running when they open Berth; Chromium's own
// start, paid once, is left out by a first visit that loads none of the web app.
// BENCH_BROWSER=fresh launches a browser for each load instead (figures before 2026-11-27).
// With LOADS > 1 the page is loaded that many times and the medians are printed; with builds
// named (copies of packages/web/dist), each load takes them in turn, served beside the same
// server (web-build-proxy.ts), so one run compares them. Those builds' files come from the
// proxy, never held up by the server's own work: compare them with each other only.
// BENCH_TRACE=1: a Chromium trace (with the JavaScript profile) of the first load.
// BENCH_SERVER_PROF=1: a CPU profile of the server for the whole run, in /tmp/berth-server-prof.
// Usage: node bench/dashboard.ts [hosts=50] [containersPerHost=20] [fpsSeconds=10] [loads=1] [dist ...]
import { statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { addEngineHosts, launchChromium, openSignedInPage, startBerth } from './berth-process.ts';
import { startFakeEnginesApart } from './fake-engine.ts';
import { summarizeTrace } from './trace-summary.ts';
import { f1, machineSpeedMs } from './figures.ts';
import { serveWebBuild } from './web-build-proxy.ts';

const HOSTS = Number(process.argv[2] ?? 50);
const PER_HOST = Number(process.argv[3] ?? 20);
const FPS_SECONDS = Number(process.argv[4] ?? 10);
const LOADS = Number(process.argv[5] ?? 1);
const BUILDS = process.argv.slice(6);
const PORT = 18_710;
const ENGINE_PORT = 19_000;
const DIST = process.env.BERTH_WEB_DIR ?? resolve(import.meta.dirname, '../packages/web/dist');
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

const engines = await startFakeEnginesApart(HOSTS, ENGINE_PORT, PER_HOST, 'h');
const berth = await startBerth(PORT, {
  BERTH_STATS_SOURCE: process.env.BENCH_STATS ?? 'api',
  ...(process.env.BENCH_SERVER_PROF
    ? { NODE_OPTIONS: '--cpu-prof --cpu-prof-dir=/tmp/berth-server-prof --cpu-prof-interval=500' }
    : {}),
  ...(process.env.BENCH_LOG_LEVEL ? { BERTH_LOG_LEVEL: process.env.BENCH_LOG_LEVEL } : {}),
});
await addEngineHosts(berth, HOSTS, ENGINE_PORT, PER_HOST, (i) => ({
  name: `synthetic-${String(i).padStart(2, '0')}`,
  tags: [i % 3 === 0 ? 'prod' : 'staging'],
}));

if (process.env.BENCH_VIEW)
  await berth.api('/v2/user/view-mode', { view_mode: process.env.BENCH_VIEW });
const speedBefore = machineSpeedMs();
const shared = process.env.BENCH_BROWSER === 'fresh' ? undefined : await launchChromium();
if (shared !== undefined) {
  const warmUp = await shared.newContext();
  await (await warmUp.newPage()).goto(`${berth.base}/api/health`);
  await warmUp.close();
}

/** The first render's figures of one load, and the page (still open) for what follows. */
async function loadDashboard(base: string, dist: string, trace: string | null) {
  const { browser, context, page } = await openSignedInPage(berth, 1440, 900, shared);
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
  if (trace !== null)
    await browser.startTracing(page, {
      path: trace,
      categories: [
        'devtools.timeline',
        'disabled-by-default-devtools.timeline',
        'v8',
        'blink',
        'loading',
        'toplevel',
        'disabled-by-default-v8.cpu_profiler',
      ],
    });
  // The page stamps two frames itself (an init script checking once a frame): the first in
  // which every card on screen is drawn with its containers (the first screen), and the first
  // in which all the cards are. Playwright's waitForFunction would inject its own large script
  // into the page while it loads, and that took ~95 ms of the same main thread. Browser-side
  // code is passed as text: bench/ is type-checked for Node, not the DOM.
  await context.addInitScript({
    content: `(() => {
      const onScreen = (el) => {
        const box = el.getBoundingClientRect();
        return box.bottom > 0 && box.top < innerHeight;
      };
      const tick = () => {
        const cards = [...document.querySelectorAll('[data-testid^="host-card-"]')];
        const frames = document.querySelectorAll('[data-testid="host-frame"]');
        if (window.__berthFirstScreen === undefined && cards.length > 0 &&
            ![...frames].some(onScreen) &&
            cards.filter(onScreen).every((c) => ${PER_HOST} === 0 || c.querySelector('[data-testid^="card-container-"]')))
          window.__berthFirstScreen = performance.now();
        if (cards.length >= ${Math.min(HOSTS, 50)} && window.__berthAllCards === undefined)
          window.__berthAllCards = performance.now();
        // Until both are stamped: all the cards can be in before those on screen have their
        // containers, and a first render left at 0 went into the medians.
        if (window.__berthFirstScreen === undefined || window.__berthAllCards === undefined)
          requestAnimationFrame(tick);
      };
      requestAnimationFrame(tick);
    })();`,
  });
  /** Waits for the page's stamps; milliseconds from navigation, and main-thread time. */
  const cardsDrawn = async () => {
    const before = await taskSeconds();
    for (const deadline = Date.now() + 30_000; ; await sleep(50)) {
      if (Date.now() > deadline) throw new Error('the host cards were not drawn within 30 s');
      const { result } = await cdp.send('Runtime.evaluate', {
        expression: '[window.__berthFirstScreen ?? 0, window.__berthAllCards ?? 0]',
        returnByValue: true,
      });
      const [first, all] = (result.value as number[]).map(Number) as [number, number];
      if (first > 0 && all > 0)
        return { first, all, tasks: ((await taskSeconds()) - before) * 1000 };
    }
  };
  await page.goto(base + '/', { waitUntil: 'commit' });
  const cold = await cardsDrawn();
  const [firstRenderMs, allCardsMs, firstRenderTaskMs] = [cold.first, cold.all, cold.tasks];
  if (trace !== null) await browser.stopTracing();
  const timeline = await page.evaluate<string>(`performance.getEntriesByType('resource')
    .filter((e) => e.name.includes('/api/') || e.name.endsWith('.js'))
    .map((e) => new URL(e.name).pathname.replace(/-[A-Za-z0-9_]{8}\\.js$/, '.js') + ' ' + Math.round(e.startTime) + '→' + Math.round(e.responseStart) + '→' + Math.round(e.responseEnd))
    .join(', ')`);
  const scriptUrls = [...scripts.values()];
  const scriptFiles = scripts.size;
  const scriptBytesCold = scriptBytes;
  // A reload in the same browser: scripts from its cache (Berth marks them immutable) and
  // their compiled code too, as a user who comes back has them.
  await sleep(1000);
  await page.reload({ waitUntil: 'commit' });
  const warm = await cardsDrawn();
  const gzipBytes = scriptUrls.reduce(
    (sum, url) => sum + statSync(join(dist, `${new URL(url).pathname}.gz`)).size,
    0,
  );
  return {
    close: () => (shared === undefined ? browser.close() : context.close()),
    page,
    firstRenderMs,
    allCardsMs,
    firstRenderTaskMs,
    warm,
    timeline,
    scriptFiles,
    scriptBytes: scriptBytesCold,
    gzipBytes,
  };
}

const builds = BUILDS.length === 0 ? [null] : BUILDS;
const proxies = await Promise.all(
  BUILDS.map(async (dist) => ({ dist, ...(await serveWebBuild(dist, PORT)) })),
);
const where = (build: string | null) =>
  build === null
    ? { base: berth.base, dist: DIST }
    : (proxies.find((p) => p.dist === build) ?? { base: berth.base, dist: DIST });
// BENCH_TRACE=1: a Chromium trace of the first load, summed by kind of work (slows it a little).
const TRACE = process.env.BENCH_TRACE === '1' ? join(tmpdir(), 'berth-dashboard-trace.json') : null;
const first = await loadDashboard(
  where(builds[0] ?? null).base,
  where(builds[0] ?? null).dist,
  TRACE,
);
// Frames while live updates stream: count requestAnimationFrame callbacks, and long tasks.
await sleep(3000);
const frames = await first.page.evaluate<{ count: number; longTasks: number }>(`(async () => {
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
await first.close();

// Further loads, the builds in turn; the first load counts among its build's.
const runs = new Map(
  builds.map((b) => [
    b,
    [] as { wall: number; all: number; tasks: number; warm: number; warmAll: number }[],
  ]),
);
runs.get(builds[0] ?? null)?.push({
  wall: first.firstRenderMs,
  all: first.allCardsMs,
  tasks: first.firstRenderTaskMs,
  warm: first.warm.first,
  warmAll: first.warm.all,
});
for (let load = 1; load < LOADS * builds.length; load++) {
  const build = builds[load % builds.length] ?? null;
  const next = await loadDashboard(where(build).base, where(build).dist, null);
  await next.close();
  runs.get(build)?.push({
    wall: next.firstRenderMs,
    all: next.allCardsMs,
    tasks: next.firstRenderTaskMs,
    warm: next.warm.first,
    warmAll: next.warm.all,
  });
  await sleep(1000);
}

const { body: sample } = await berth.api('/containers');
console.log(`bench/dashboard: ${HOSTS} hosts × ${PER_HOST} containers (synthetic engines)`);
console.log(
  `  machine speed (bench/figures.ts, lower is faster): ${f1(speedBefore)} ms before the loads, ${f1(machineSpeedMs())} ms after`,
);
console.log(`  containers listed by the server: ${Array.isArray(sample) ? sample.length : 0}`);
console.log(
  `  first render (navigation to the cards on screen drawn with their containers): ${first.firstRenderMs.toFixed(0)} ms; all ${Math.min(HOSTS, 50)} host cards drawn: ${first.allCardsMs.toFixed(0)} ms, main-thread tasks until then ${first.firstRenderTaskMs.toFixed(0)} ms`,
);
console.log(
  `  the same page reloaded (scripts and their compiled code cached): first render ${first.warm.first.toFixed(0)} ms; all cards ${first.warm.all.toFixed(0)} ms, main-thread tasks until then ${first.warm.tasks.toFixed(0)} ms`,
);
console.log(`  requests (ms after navigation: start→first byte→end): ${first.timeline}`);
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
  `  JavaScript transferred for the first screen: ${(first.scriptBytes / 1024).toFixed(1)} KB in ${first.scriptFiles} files (brotli, as served); ${(first.gzipBytes / 1024).toFixed(1)} KB gzip`,
);
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? NaN;
if (LOADS > 1 || builds.length > 1)
  for (const [build, list] of runs)
    console.log(
      `  ${build ?? 'served by Berth'}, medians over ${list.length} loads: first render ${f1(median(list.map((r) => r.wall)))} ms (${list.map((r) => r.wall.toFixed(0)).join(', ')}), all cards ${f1(median(list.map((r) => r.all)))} ms, main-thread tasks until then ${f1(median(list.map((r) => r.tasks)))} ms; reloaded with scripts cached: first render ${f1(median(list.map((r) => r.warm)))} ms (${list.map((r) => r.warm.toFixed(0)).join(', ')}), all cards ${f1(median(list.map((r) => r.warmAll)))} ms`,
    );

for (const proxy of proxies) proxy.close();
await shared?.close();
berth.stop();
await engines.close();
process.exit(0);
