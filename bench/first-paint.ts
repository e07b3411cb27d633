// bench/first-paint: the login screen loaded cold in Chromium (a fresh context each time, so
// nothing is cached), RUNS times. Prints the JavaScript loaded up front (requested before the
// first contentful paint; bytes on the wire, brotli as the server sends it, and decoded), and the first contentful paint and the login
// form's paint, as medians. With a second URL (any single-page app, e.g. a reference UI behind
// a small proxy to Berth's API), loads the two alternately and prints both medians and the
// ratio. Asserts nothing. Needs a build (`npm run build`).
// FROM=other-site starts each load from a page of another site, as a visit from a link, a
// bookmark in a used tab or a new tab does (the browser then puts the page in a new renderer
// process, whatever its headers); by default each load starts in a fresh tab's blank page,
// whose process a page may reuse unless it sends Cross-Origin-Opener-Policy (ADR 010).
// Usage: node bench/first-paint.ts [runs=15] [otherLoginUrl]
import { createServer } from 'node:http';
import { chromium, type Browser } from '@playwright/test';
import { startBerth } from './berth-process.ts';
import { f1, machineSpeedMs, pct } from './figures.ts';

const RUNS = Number(process.argv[2] ?? 15);
const OTHER = process.argv[3];
const PORT = 18_730;

interface Load {
  fcp: number;
  /** A password field on screen: the login form itself. */
  form: number;
  /** Scripts requested before the first contentful paint: what the first screen waited for. */
  jsWire: number;
  jsDecoded: number;
  jsFiles: number;
  /** Every script loaded by the time the network is idle (lazy parts included). */
  jsWireIdle: number;
}

/** A page of another site (localhost, where Berth is 127.0.0.1) to start each load from. */
const startPage =
  process.env.FROM === 'other-site'
    ? await new Promise<string>((resolve) => {
        const server = createServer((_req, res) => res.end('<!doctype html><p>elsewhere</p>'));
        server.listen(0, '127.0.0.1', () => {
          const address = server.address();
          resolve(`http://localhost:${typeof address === 'object' && address ? address.port : 0}/`);
          server.unref();
        });
      })
    : null;

async function loadCold(browser: Browser, url: string): Promise<Load> {
  const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
  const page = await context.newPage();
  if (startPage !== null) await page.goto(startPage);
  await page.goto(url, { waitUntil: 'commit' });
  await page.locator('input[type="password"]').waitFor({ timeout: 30_000 });
  const form = await page.evaluate(() => performance.now());
  await page.waitForLoadState('networkidle');
  const figures = await page.evaluate(async () => {
    // Browser types (the bench's compiler knows Node's only).
    interface Resource {
      name: string;
      startTime: number;
      encodedBodySize: number;
      decodedBodySize: number;
    }
    const fcp = await new Promise<number>((resolve) => {
      const poll = () => {
        const entry = performance.getEntriesByName('first-contentful-paint')[0];
        if (entry) resolve(entry.startTime);
        else setTimeout(poll, 20);
      };
      poll();
    });
    const scripts = (performance.getEntriesByType('resource') as unknown as Resource[]).filter(
      (e) => /\.m?js(\?|$)/.test(e.name),
    );
    const upFront = scripts.filter((e) => e.startTime < fcp);
    return {
      fcp,
      jsWire: upFront.reduce((n, e) => n + e.encodedBodySize, 0),
      jsDecoded: upFront.reduce((n, e) => n + e.decodedBodySize, 0),
      jsFiles: upFront.length,
      jsWireIdle: scripts.reduce((n, e) => n + e.encodedBodySize, 0),
    };
  });
  await context.close();
  return { ...figures, form };
}

const speedBefore = machineSpeedMs();
const berth = await startBerth(PORT);
const browser = await chromium.launch({
  executablePath: '/usr/bin/chromium',
  args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run'],
});
const targets = [{ name: 'Berth', url: `${berth.base}/login`, loads: [] as Load[] }];
if (OTHER !== undefined) targets.push({ name: 'other', url: OTHER, loads: [] });
// One load each, not counted: Chromium's own first start.
for (const t of targets) await loadCold(browser, t.url);
for (let i = 0; i < RUNS; i++)
  for (const t of targets) t.loads.push(await loadCold(browser, t.url));
await browser.close();
berth.stop();

const median = (xs: number[]) => pct(xs, 50);
console.log(
  `machine speed (bench/figures.ts, lower is faster): ${f1(speedBefore)} ms before the loads, ${f1(machineSpeedMs())} ms after`,
);
console.log(
  `each load starts from ${startPage === null ? 'a fresh tab' : `another site (${startPage})`}`,
);
for (const t of targets) {
  const l = t.loads[0];
  console.log(
    `${t.name} ${t.url}: JS up front ${f1((l?.jsWire ?? 0) / 1024)} KB on the wire (${f1((l?.jsDecoded ?? 0) / 1024)} KB decoded, ${l?.jsFiles ?? 0} files requested before the first paint; ${f1((l?.jsWireIdle ?? 0) / 1024)} KB once idle); ` +
      `first contentful paint median ${f1(median(t.loads.map((x) => x.fcp)))} ms ` +
      `(min ${f1(Math.min(...t.loads.map((x) => x.fcp)))}, max ${f1(Math.max(...t.loads.map((x) => x.fcp)))}), ` +
      `login form median ${f1(median(t.loads.map((x) => x.form)))} ms over ${t.loads.length} cold loads`,
  );
}
const [mine, other] = targets;
if (mine !== undefined && other !== undefined) {
  const a = median(mine.loads.map((x) => x.fcp));
  const b = median(other.loads.map((x) => x.fcp));
  const earlier = mine.loads.filter((x, i) => x.fcp < (other.loads[i]?.fcp ?? Infinity)).length;
  console.log(
    `FCP ratio Berth / other: ${(a / b).toFixed(2)} (target <= 0.7); Berth earlier in ${earlier} of ${mine.loads.length} pairs`,
  );
}
process.exit(0);
