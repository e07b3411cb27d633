// bench/phone: Berth on a phone, against issue 51's measures. Chromium with its CPU slowed
// four times (Emulation.setCPUThrottlingRate) and a 390 × 844 touch viewport (mobile, DPR 3),
// against 50 fake engines × 20 containers (fake-engine.ts) through the real server:
//   1. the signed-in dashboard's first render with 50 hosts (target < 1.5 s), cold (a fresh
//      context: nothing cached), median of LOADS;
//   2. the containers list with 1,000 containers: scrolling frame rate (≥ 50 fps) and search
//      → painted p95 (< 100 ms);
//   3. the JavaScript the first screen transfers, phone against desktop (1440 × 900) (≤);
//      and what the service worker fetches after the first load (its precache);
//   4. the installability checks (Chromium's own verdict, as Lighthouse asked it) in a
//      browser profile of its own (an incognito context is never installable).
// Needs a build (`npm run build`). Prints figures; asserts nothing. About 3 minutes.
// Usage: node bench/phone.ts [loads=3] [hosts=50] [containersPerHost=20]
// (or `npm run phone -w @berth/bench`)
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { BrowserContext, CDPSession, Page } from '@playwright/test';
import {
  addEngineHosts,
  launchChromium,
  openSignedInPage,
  startBerth,
  type BerthProcess,
} from './berth-process.ts';
import { startFakeEnginesApart } from './fake-engine.ts';
import { f1, machineSpeedMs, pct } from './figures.ts';

const LOADS = Number(process.argv[2] ?? 3);
const HOSTS = Number(process.argv[3] ?? 50);
const PER_HOST = Number(process.argv[4] ?? 20);
const PORT = 18_760;
const ENGINE_PORT = 19_600;
const CPU_SLOWDOWN = 4;
const PHONE = { width: 390, height: 844 };
const DESKTOP = { width: 1440, height: 900 };
const DIST = process.env.BERTH_WEB_DIR ?? resolve(import.meta.dirname, '../packages/web/dist');
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const say = (line: string) => console.log(`bench/phone: ${line}`);
const median = (xs: number[]) => pct(xs, 50);
const kb = (bytes: number) => `${f1(bytes / 1024)} KB`;
const verdict = (ok: boolean) => (ok ? 'met' : 'MISSED');
const load = () =>
  loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');

type Browser = Awaited<ReturnType<typeof launchChromium>>;

/**
 * A signed-in page of `berth` in a fresh context, as a phone (touch, mobile, DPR 3) or a
 * desktop, the CPU slowed `CPU_SLOWDOWN` times in both, counting the scripts it transfers.
 */
async function openPage(berth: BerthProcess, browser: Browser, phone: boolean) {
  const size = phone ? PHONE : DESKTOP;
  const opened = phone
    ? await openPhonePage(berth, browser)
    : await openSignedInPage(berth, size.width, size.height, browser);
  const cdp = await opened.context.newCDPSession(opened.page);
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: CPU_SLOWDOWN });
  await cdp.send('Network.enable');
  const scripts = new Set<string>();
  const script = { bytes: 0, files: 0 };
  cdp.on('Network.responseReceived', (e) => {
    if (e.type === 'Script') scripts.add(e.requestId);
  });
  cdp.on('Network.loadingFinished', (e) => {
    if (!scripts.has(e.requestId)) return;
    script.bytes += e.encodedDataLength;
    script.files++;
  });
  return { ...opened, cdp, script };
}

/** openSignedInPage's context, as a phone: its options are fixed there. */
async function openPhonePage(berth: BerthProcess, browser: Browser) {
  const context = await browser.newContext({
    viewport: PHONE,
    isMobile: true,
    hasTouch: true,
    deviceScaleFactor: 3,
    bypassCSP: true, // Playwright's string predicates need eval, which Berth's CSP refuses
  });
  await context.addCookies([
    {
      name: berth.cookie.split('=')[0] ?? '',
      value: berth.cookie.split('=').slice(1).join('='),
      url: berth.base,
    },
  ]);
  return { browser, context, page: await context.newPage() };
}

/**
 * The dashboard's first render: the first frame in which every host card on screen is drawn
 * with its containers (as bench/dashboard stamps it, from an init script, so no Playwright
 * script is injected into the loading page). Milliseconds from navigation.
 */
async function dashboardFirstRender(context: BrowserContext, page: Page, cdp: CDPSession) {
  await context.addInitScript({
    content: `(() => {
      const onScreen = (el) => {
        const box = el.getBoundingClientRect();
        return box.bottom > 0 && box.top < innerHeight;
      };
      const tick = () => {
        const cards = [...document.querySelectorAll('[data-testid^="host-card-"]')].filter(onScreen);
        if (cards.length > 0 && cards.every((c) => c.querySelector('[data-testid^="card-container-"]')))
          window.__berthFirstScreen = performance.now();
        else requestAnimationFrame(tick);
      };
      requestAnimationFrame(tick);
    })();`,
  });
  await page.goto(`${base}/`, { waitUntil: 'commit' });
  for (const deadline = Date.now() + 60_000; Date.now() < deadline; await sleep(50)) {
    const { result } = await cdp.send('Runtime.evaluate', {
      expression: 'window.__berthFirstScreen ?? 0',
      returnByValue: true,
    });
    if (Number(result.value) > 0) return Number(result.value);
  }
  throw new Error('the host cards were not drawn within 60 s');
}

/** The server's address, set once it has started. */
let base = '';

/** The containers list's count line once it shows `total`, and ms from navigation. */
async function openContainers(page: Page, total: number): Promise<number> {
  await page.goto(`${base}/containers`, { waitUntil: 'commit' });
  const all = `${total} container(s)`;
  await page.waitForFunction(
    `[...document.querySelectorAll('[data-testid="container-count"]')].some((e) => e.textContent === ${JSON.stringify(all)})`,
    undefined,
    { timeout: 60_000, polling: 'raf' },
  );
  return page.evaluate<number>('performance.now()');
}

/** Types `query` into the search box; ms until the list showing `expected` is painted. */
const searchToPaint = (page: Page, query: string, expected: number) =>
  page.evaluate<number>(`(async () => {
    const visible = (e) => e.getClientRects().length > 0;
    const input = [...document.querySelectorAll('input[aria-label="Search containers"]')].find(visible);
    const count = [...document.querySelectorAll('[data-testid="container-count"]')].find(visible);
    const setValue = Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value').set;
    const want = ${JSON.stringify(`${expected} container(s)`)};
    const start = performance.now();
    setValue.call(input, ${JSON.stringify(query)});
    input.dispatchEvent(new Event('input', { bubbles: true }));
    await new Promise((resolve) => {
      const check = () =>
        count.textContent === want || performance.now() - start > 5000 ? resolve() : requestAnimationFrame(check);
      check();
    });
    // The frame that shows it: the next animation frame, then the paint after it.
    await new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0)));
    return performance.now() - start;
  })()`);

/**
 * Scrolls the list's scrolling box (or the page) from top to bottom, 60 px a frame, as
 * bench/containers does; frames per second and long tasks meanwhile.
 */
const scrollFps = (page: Page) =>
  page.evaluate<{ fps: number; longTasks: number; px: number }>(`(async () => {
    const list = document.querySelector('[data-testid="container-cards"]') ?? document.querySelector('tbody');
    let box = list;
    while (box && box !== document.body && !(box.scrollHeight > box.clientHeight + 1 && /auto|scroll/.test(getComputedStyle(box).overflowY)))
      box = box.parentElement;
    if (!box || box === document.body) box = document.scrollingElement;
    box.scrollTop = 0;
    let frames = 0;
    let longTasks = 0;
    const observer = new PerformanceObserver((l) => (longTasks += l.getEntries().length));
    observer.observe({ entryTypes: ['longtask'] });
    const start = performance.now();
    await new Promise((resolve) => {
      const step = () => {
        frames++;
        box.scrollTop += 60;
        if (box.scrollTop + box.clientHeight >= box.scrollHeight - 1 || performance.now() - start > 8000) resolve();
        else requestAnimationFrame(step);
      };
      requestAnimationFrame(step);
    });
    observer.disconnect();
    return { fps: (frames * 1000) / (performance.now() - start), longTasks, px: box.scrollTop };
  })()`);

/** The files the service worker caches (the list the build wrote at the top of /sw.js). */
function precacheBytes(): { files: number; brotli: number } {
  const source = readFileSync(join(DIST, 'sw.js'), 'utf8');
  const list = JSON.parse(/^const SHELL = (\[.*\]);$/m.exec(source)?.[1] ?? '[]') as string[];
  let brotli = 0;
  for (const path of list) {
    const file = join(DIST, path);
    try {
      brotli += statSync(`${file}.br`).size;
    } catch {
      brotli += statSync(file).size; // images and the manifest are sent as they are
    }
  }
  return { files: list.length, brotli };
}

/** Chromium's installability verdict for the app, in a profile of its own, as a phone. */
async function installability(berth: BerthProcess) {
  const { chromium } = await import('@playwright/test');
  const profile = mkdtempSync(join(tmpdir(), 'berth-phone-profile-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run'],
    viewport: PHONE,
    isMobile: true,
    hasTouch: true,
    bypassCSP: true, // the string predicate below needs eval
  });
  try {
    await context.addCookies([
      {
        name: berth.cookie.split('=')[0] ?? '',
        value: berth.cookie.split('=').slice(1).join('='),
        url: berth.base,
      },
    ]);
    const page = context.pages()[0] ?? (await context.newPage());
    await page.goto(`${berth.base}/`);
    const controlled = await page
      .waitForFunction('navigator.serviceWorker.controller !== null', undefined, {
        timeout: 30_000,
      })
      .then(
        () => true,
        () => false,
      );
    const cdp = await context.newCDPSession(page);
    const manifest = (await cdp.send('Page.getAppManifest')) as {
      url: string;
      errors: { message: string }[];
    };
    const { installabilityErrors } = (await cdp.send('Page.getInstallabilityErrors')) as {
      installabilityErrors: { errorId: string }[];
    };
    return {
      controlled,
      manifestUrl: manifest.url,
      manifestErrors: manifest.errors.map((e) => e.message),
      errors: installabilityErrors.map((e) => e.errorId),
    };
  } finally {
    await context.close();
    rmSync(profile, { recursive: true, force: true });
  }
}

// The fleet: one server, 50 engines × 20 containers (so 1,000 containers in the list).
const engines = await startFakeEnginesApart(HOSTS, ENGINE_PORT, PER_HOST, 'p');
const berth = await startBerth(PORT, { BERTH_STATS_SOURCE: 'api' });
base = berth.base;
const browser = await launchChromium();
try {
  await addEngineHosts(berth, HOSTS, ENGINE_PORT, PER_HOST, (i) => ({
    name: `phone-${String(i).padStart(2, '0')}`,
    tags: [i % 3 === 0 ? 'prod' : 'staging'],
  }));
  const total = HOSTS * PER_HOST;
  const speedBefore = machineSpeedMs();
  say(`${HOSTS} hosts × ${PER_HOST} containers; CPU ÷${CPU_SLOWDOWN}; load ${load()}`);
  // Chromium's own start, paid once, out of the figures.
  const warmUp = await browser.newContext();
  await (await warmUp.newPage()).goto(`${berth.base}/api/health`);
  await warmUp.close();

  // 1 and 3: the dashboard, cold, as a phone and as a desktop, in turn.
  const firsts: Record<'phone' | 'desktop', number[]> = { phone: [], desktop: [] };
  const scriptKb: Record<'phone' | 'desktop', { bytes: number; files: number }[]> = {
    phone: [],
    desktop: [],
  };
  for (let i = 0; i < LOADS; i++)
    for (const kind of ['phone', 'desktop'] as const) {
      const opened = await openPage(berth, browser, kind === 'phone');
      firsts[kind].push(await dashboardFirstRender(opened.context, opened.page, opened.cdp));
      scriptKb[kind].push({ ...opened.script });
      await opened.context.close();
    }
  for (const kind of ['phone', 'desktop'] as const)
    say(
      `dashboard first render (${kind}): median ${f1(median(firsts[kind]))} ms ` +
        `[${firsts[kind].map((ms) => ms.toFixed(0)).join(', ')}]` +
        (kind === 'phone' ? ` (target < 1500 ms: ${verdict(median(firsts.phone) < 1500)})` : ''),
    );
  const bytes = (kind: 'phone' | 'desktop') => median(scriptKb[kind].map((s) => s.bytes));
  const files = (kind: 'phone' | 'desktop') => median(scriptKb[kind].map((s) => s.files));
  say(
    `JavaScript until the first render: phone ${kb(bytes('phone'))} in ${files('phone')} files, ` +
      `desktop ${kb(bytes('desktop'))} in ${files('desktop')} files (transferred, brotli; ` +
      `target phone ≤ desktop: ${verdict(bytes('phone') <= bytes('desktop'))})`,
  );
  const precache = precacheBytes();
  say(
    `service worker precache after the first load: ${precache.files} files, ` +
      `${kb(precache.brotli)} (brotli where the build has it)`,
  );

  // 2: the containers list on the phone.
  const phone = await openPage(berth, browser, true);
  const listMs = await openContainers(phone.page, total);
  await sleep(3000); // the first stats and the live channel settle
  const listed = (await berth.api('/containers')).body as { name: string; host_name: string }[];
  const matching = (q: string) =>
    listed.filter((c) => c.name.includes(q) || c.host_name.includes(q)).length;
  const one = listed[Math.floor(listed.length / 2)]?.name ?? '';
  const queries = ['phone-1', one, 'no-such-container', 'phone-0', one.slice(0, 4)];
  const searches: number[] = [];
  for (let round = 0; round < 4; round++)
    for (const q of queries) {
      searches.push(await searchToPaint(phone.page, q, matching(q)));
      searches.push(await searchToPaint(phone.page, '', listed.length));
    }
  const scrolls = [await scrollFps(phone.page), await scrollFps(phone.page)];
  await phone.context.close();
  say(`containers list (${listed.length}) first render: ${f1(listMs)} ms`);
  say(
    `search → painted: p50 ${f1(pct(searches, 50))} ms, p95 ${f1(pct(searches, 95))} ms over ` +
      `${searches.length} (target p95 < 100 ms: ${verdict(pct(searches, 95) < 100)})`,
  );
  for (const s of scrolls)
    say(
      `scroll top to bottom (${s.px.toFixed(0)} px): ${f1(s.fps)} fps, ${s.longTasks} long ` +
        `tasks (target ≥ 50 fps: ${verdict(s.fps >= 50)})`,
    );

  // 4: installability.
  const install = await installability(berth);
  say(
    `installability: worker controls the page ${install.controlled ? 'yes' : 'NO'}; manifest ` +
      `${install.manifestUrl} errors [${install.manifestErrors.join('; ')}]; Chromium's ` +
      `installability errors [${install.errors.join(', ')}] ` +
      `(${verdict(install.controlled && install.errors.length === 0 && install.manifestErrors.length === 0)})`,
  );
  say(`machine speed ${f1(speedBefore)} → ${f1(machineSpeedMs())} ms (figures.ts); load ${load()}`);
} finally {
  await browser.close();
  berth.stop();
  await engines.close();
}
