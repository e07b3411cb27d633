// bench/terminal: the container shell in Chromium, on the rig's plain engine reached directly
// (TCP) and through an agent process on its unix socket. For each way:
//  1. key press → echoed character on screen: a key event dispatched to xterm's textarea until
//     the character is in the terminal's rendered rows (MutationObserver), KEYS times; p50/p95
//     against the targets (< 50 ms direct, < 80 ms through the agent);
//  2. `cat` of a 10 MB file: the longest main-thread task while it renders (Long Tasks API;
//     target < 100 ms) and how long until the line after it shows.
// Also counts the container's running execs after each session closed (orphans: target 0).
// Needs a build (`npm run build`) and the rig (`bash scripts/engines.sh up`). Asserts nothing.
// Usage: node bench/terminal.ts [keys=100]
import { randomBytes } from 'node:crypto';
import { request } from 'node:http';
import { loadavg } from 'node:os';
import type { Container, Host } from '@berth/contracts';
import { chromium, type Page } from '@playwright/test';
import { WebSocket } from 'ws';
import { startAgents, waitOnline } from './agent-processes.ts';
import { startBerth } from './berth-process.ts';
import { chromiumExecutable } from './cpu-pin.ts';
import { f1, machineSpeedMs, pct } from './figures.ts';
import { BENCH_LABEL, docker, rig } from './rig.ts';

const KEYS = Number(process.argv[2] ?? 100);
const PORT = 18_760;
const TAG = randomBytes(3).toString('hex');
const DIRECT = `term-direct-${TAG}`;
const AGENT = `term-agent-${TAG}`;
const say = (line: string) => console.log(line);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

const plain = rig.engines.find((e) => e.name === 'plain');
if (plain === undefined) throw new Error('The rig has no plain engine');
const name = `berth-bench-term-${TAG}`;

/**
 * The same round trip without a browser: a WebSocket client types one character at a time on
 * the shell's socket and waits for its echo. Berth, the engine (and the agent) alone.
 */
async function socketRoundTrips(host: Host, id: string, keys: number): Promise<number[]> {
  const url = `${berth.base.replace('http', 'ws')}/ws/exec?host=${host.id}&container=${id}`;
  const socket = new WebSocket(url, { headers: { cookie: berth.cookie } });
  let output = '';
  let wake: () => void = () => undefined;
  socket.on('message', (data: Buffer, isBinary: boolean) => {
    if (isBinary) output += data.toString('utf8');
    else if (data.toString().includes('"error"')) throw new Error(data.toString());
    wake();
  });
  await new Promise((resolve, reject) => socket.once('open', resolve).once('error', reject));
  const until = (text: string) =>
    new Promise<void>((resolve) => {
      wake = () => {
        if (output.includes(text)) resolve();
      };
      wake();
    });
  const send = (data: string) => socket.send(JSON.stringify({ type: 'input', data }));
  socket.send(JSON.stringify({ type: 'start', command: '/bin/sh', user: '', cols: 200, rows: 50 }));
  await until('# ');
  const times: number[] = [];
  for (let batch = 0; times.length < keys; batch++) {
    let typed = `#z${batch}`;
    send(typed);
    await until(typed);
    for (let i = 0; i < 20 && times.length < keys; i++) {
      typed += 'abcdefghij'[i % 10] ?? 'a';
      const start = performance.now();
      send(typed.slice(-1));
      await until(typed);
      times.push(performance.now() - start);
    }
    send('\r');
  }
  socket.close();
  return times;
}

/** Waits until `host` lists the bench's container running; answers its id there. */
async function waitListed(host: Host): Promise<string> {
  for (let i = 0; i < 150; i++) {
    const { body } = await berth.api(`/containers?host_id=${host.id}`);
    const found = (body as Container[]).find((c) => c.name === name && c.state === 'running');
    if (found !== undefined) return found.id;
    await sleep(200);
  }
  throw new Error(`${host.name} never listed ${name}`);
}

/** Opens the container's dialog for `host` (the name is listed once per host) on Shell. */
async function openShell(page: Page, host: Host): Promise<void> {
  await page.goto(`${berth.base}/containers`);
  const buttons = page.getByRole('button', { name, exact: true });
  await buttons
    .first()
    .waitFor({ timeout: 30_000 })
    .catch(async (err: unknown) => {
      await page.screenshot({ path: '/tmp/bench-terminal-failed.png' });
      throw err;
    });
  for (let i = 0; i < (await buttons.count()); i++) {
    await buttons.nth(i).click();
    const dialog = page.getByRole('dialog', { name: `${name} (${host.name})` });
    if ((await dialog.count()) === 0) {
      await page.keyboard.press('Escape');
      continue;
    }
    await dialog.getByRole('tab', { name: 'Shell' }).click();
    await dialog.getByRole('button', { name: 'Connect' }).click();
    await dialog.getByText('Connected: /bin/sh').waitFor();
    await page.locator('.xterm-rows').getByText('#').first().waitFor(); // the prompt
    return;
  }
  throw new Error(`No dialog for ${name} on ${host.name}`);
}

// The in-page parts are JavaScript text: the bench compiles against Node's types only.

/** Key events straight to xterm (what a key press gives it), each waited for on screen. */
const ROUND_TRIPS = `async (n) => {
  const area = document.querySelector('.xterm-helper-textarea');
  const rows = document.querySelector('.xterm-rows');
  const press = (key, keyCode) =>
    area.dispatchEvent(new KeyboardEvent('keydown', { key, keyCode, bubbles: true, cancelable: true }));
  const shown = (text) => new Promise((resolve) => {
    const observer = new MutationObserver(() => {
      if (!rows.textContent.includes(text)) return;
      observer.disconnect();
      resolve(performance.now());
    });
    observer.observe(rows, { childList: true, subtree: true, characterData: true });
  });
  const times = [];
  const shares = [];
  const letters = 'abcdefghij';
  for (let batch = 0; times.length < n; batch++) {
    // Each batch is a comment line of its own, marked so an older line never matches.
    const mark = '#' + 'klmnopqrstuvwxyz'[batch % 16] + batch;
    const ready = shown(mark);
    for (const ch of mark) press(ch, ch === '#' ? 51 : ch.toUpperCase().charCodeAt(0));
    await ready;
    let typed = mark;
    for (let i = 0; i < 20 && times.length < n; i++) {
      const ch = letters[i % 10];
      typed += ch;
      const seen = shown(typed);
      const start = performance.now();
      press(ch, ch.toUpperCase().charCodeAt(0));
      const end = await seen;
      times.push(end - start);
      const arrived = (window.__execArrivals || []).filter((t) => t >= start)[0];
      if (arrived !== undefined) shares.push(end - arrived);
    }
    press('Enter', 13);
  }
  return { times, shares };
}`;

/**
 * Before the app loads: the time each output message of a shell's socket arrives, so the
 * round trip splits into the network's part and xterm's (message → on screen).
 */
const ARRIVALS = `(() => {
  const Native = window.WebSocket;
  window.__execArrivals = [];
  window.WebSocket = class extends Native {
    constructor(url, protocols) {
      super(url, protocols);
      if (String(url).includes('/ws/exec'))
        this.addEventListener('message', (e) => {
          if (typeof e.data !== 'string') window.__execArrivals.push(performance.now());
        });
    }
  };
})()`;

/** Pastes the command (xterm's paste path), presses Enter, watches long tasks until done. */
const CAT_BIG = `async () => {
  const area = document.querySelector('.xterm-helper-textarea');
  const rows = document.querySelector('.xterm-rows');
  const longs = [];
  const observer = new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) longs.push(entry.duration);
  });
  observer.observe({ type: 'longtask' });
  const data = new DataTransfer();
  data.setData('text/plain', 'cat /tmp/big; echo "end-$((40+2))"');
  area.dispatchEvent(new ClipboardEvent('paste', { clipboardData: data, bubbles: true }));
  const start = performance.now();
  area.dispatchEvent(new KeyboardEvent('keydown', { key: 'Enter', keyCode: 13, bubbles: true, cancelable: true }));
  await new Promise((resolve) => {
    const poll = () => (rows.textContent.includes('end-42') ? resolve() : setTimeout(poll, 50));
    poll();
  });
  const ms = performance.now() - start;
  await new Promise((r) => setTimeout(r, 200)); // the last tasks' entries
  observer.disconnect();
  return { ms, longest: Math.max(0, ...longs), count: longs.length };
}`;

function roundTrips(page: Page, keys: number): Promise<{ times: number[]; shares: number[] }> {
  return page.evaluate<{ times: number[]; shares: number[] }>(`(${ROUND_TRIPS})(${keys})`);
}

/** The round trip on a WebSocket of the page's own, no xterm: the browser's share without rendering. */
const PAGE_SOCKET = `async ([url, n]) => {
  const socket = new WebSocket(url);
  socket.binaryType = 'arraybuffer';
  let output = '';
  let wake = () => {};
  const decoder = new TextDecoder();
  socket.onmessage = (e) => {
    if (typeof e.data !== 'string') output += decoder.decode(e.data);
    wake();
  };
  await new Promise((r) => (socket.onopen = r));
  const until = (text) => new Promise((resolve) => {
    wake = () => output.includes(text) && resolve(performance.now());
    wake();
  });
  const send = (data) => socket.send(JSON.stringify({ type: 'input', data }));
  socket.send(JSON.stringify({ type: 'start', command: '/bin/sh', user: '', cols: 200, rows: 50 }));
  await until('# ');
  const times = [];
  for (let batch = 0; times.length < n; batch++) {
    let typed = '#y' + batch;
    send(typed);
    await until(typed);
    for (let i = 0; i < 20 && times.length < n; i++) {
      typed += 'abcdefghij'[i % 10];
      const start = performance.now();
      send(typed.slice(-1));
      times.push((await until(typed)) - start);
    }
    send('\\r');
  }
  socket.close();
  return times;
}`;

function pageSocketRoundTrips(page: Page, url: string, keys: number): Promise<number[]> {
  return page.evaluate<number[]>(`(${PAGE_SOCKET})(${JSON.stringify([url, keys])})`);
}

/** The longest task over a quiet window: what the page and the machine give without output. */
const QUIET = `async () => {
  const longs = [];
  const observer = new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) longs.push(entry.duration);
  });
  observer.observe({ type: 'longtask' });
  await new Promise((r) => setTimeout(r, 3000));
  observer.disconnect();
  return Math.max(0, ...longs);
}`;

/** Frame intervals with the dialog open (software compositing: the overlay's blur costs). */
const FRAMES = `async () => {
  const gaps = [];
  let last = performance.now();
  for (let i = 0; i < 60; i++) {
    await new Promise((r) => requestAnimationFrame(r));
    const now = performance.now();
    gaps.push(now - last);
    last = now;
  }
  return gaps.sort((a, b) => a - b)[30];
}`;

function frameInterval(page: Page): Promise<number> {
  return page.evaluate<number>(`(${FRAMES})()`);
}

function quietLongest(page: Page): Promise<number> {
  return page.evaluate<number>(`(${QUIET})()`);
}

function catBig(page: Page): Promise<{ ms: number; longest: number; count: number }> {
  return page.evaluate<{ ms: number; longest: number; count: number }>(`(${CAT_BIG})()`);
}

/** The container's execs the engine still runs (its ExecIDs, each inspected), after `ms`. */
async function orphansAfter(ms: number): Promise<number> {
  await sleep(ms);
  const socketPath = (plain?.socket ?? '').replace(/^unix:\/\//, '');
  const get = (path: string) =>
    new Promise<unknown>((resolve, reject) => {
      const req = request({ socketPath, path, timeout: 10_000 }, (res) => {
        let body = '';
        res.on('data', (chunk: Buffer) => (body += chunk.toString()));
        res.on('end', () => resolve(JSON.parse(body) as unknown));
      });
      req.on('error', reject);
      req.end();
    });
  const container = (await get(`/containers/${name}/json`)) as { ExecIDs: string[] | null };
  let running = 0;
  for (const id of container.ExecIDs ?? [])
    if (((await get(`/exec/${id}/json`)) as { Running: boolean }).Running) running += 1;
  return running;
}

await docker(plain, [
  'run',
  '-d',
  '--init',
  '--label',
  BENCH_LABEL,
  '--name',
  name,
  rig.images.busybox,
  'sleep',
  '36000',
]);
// About 10 MB of printable text (base64 lines of 76 characters).
await docker(plain, ['exec', name, 'sh', '-c', 'head -c 7600000 /dev/urandom | base64 > /tmp/big']);
const size = (await docker(plain, ['exec', name, 'wc', '-c', '/tmp/big'])).stdout.trim();

const berth = await startBerth(PORT, { BERTH_STATS_SOURCE: 'api' });
const agents = await startAgents(berth, [plain.socket.replace(/^unix:\/\//, '')], () => AGENT);
await berth.api('/hosts', { name: DIRECT, url: plain.url });
const hosts = await waitOnline(berth, [DIRECT, AGENT], 60_000);
if (hosts === null) throw new Error('The hosts did not come online');
const browser = await chromium.launch({
  executablePath: chromiumExecutable(),
  args: ['--headless', '--no-sandbox', '--disable-gpu'],
});

try {
  const load = loadavg()
    .map((n) => n.toFixed(1))
    .join(' ');
  say(
    `bench/terminal: ${KEYS} keys per way; machine speed ${f1(machineSpeedMs())} ms; load ${load}; file ${size}`,
  );
  for (const host of hosts.sort((a, b) => Number(a.name !== DIRECT) - Number(b.name !== DIRECT))) {
    const target = host.name === DIRECT ? 50 : 80;
    const way = host.name === DIRECT ? 'direct (TCP)' : 'through the agent';
    const id = await waitListed(host);
    const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
    const [cookieName = '', cookieValue = ''] = berth.cookie.split('=');
    await context.addCookies([{ name: cookieName, value: cookieValue, url: berth.base }]);
    const page = await context.newPage();
    await page.addInitScript(ARRIVALS);
    await openShell(page, host);
    const bare = await socketRoundTrips(host, id, KEYS);
    say(
      `${way}: socket only (no browser) key → echo p50 ${f1(pct(bare, 50))} ms, p95 ${f1(pct(bare, 95))} ms`,
    );
    const inPage = await pageSocketRoundTrips(
      page,
      `${berth.base.replace('http', 'ws')}/ws/exec?host=${host.id}&container=${id}`,
      KEYS,
    );
    say(
      `${way}: in the page without xterm key → echo p50 ${f1(pct(inPage, 50))} ms, p95 ${f1(pct(inPage, 95))} ms`,
    );
    say(`${way}: frame interval with the dialog open p50 ${f1(await frameInterval(page))} ms`);
    const { times, shares } = await roundTrips(page, KEYS);
    say(
      `${way}: key → echo p50 ${f1(pct(times, 50))} ms, p95 ${f1(pct(times, 95))} ms, ` +
        `max ${f1(Math.max(...times))} ms (target p95 < ${target} ms: ${pct(times, 95) < target ? 'met' : 'MISSED'})`,
    );
    say(
      `${way}: of which xterm (message arrived → on screen) p50 ${f1(pct(shares, 50))} ms, p95 ${f1(pct(shares, 95))} ms`,
    );
    const quiet = await quietLongest(page);
    const cat = await catBig(page);
    say(
      `${way}: cat 10 MB rendered in ${f1(cat.ms / 1000)} s; longest task ${f1(cat.longest)} ms, ` +
        `${cat.count} tasks over 50 ms (target longest < 100 ms: ${cat.longest < 100 ? 'met' : 'MISSED'}); ` +
        `longest in 3 s without output: ${f1(quiet)} ms`,
    );
    await context.close();
    say(
      `${way}: execs still running 5 s after the page closed: ${await orphansAfter(5000)} (target 0)`,
    );
  }
} finally {
  await browser.close();
  await agents.stop();
  berth.stop();
  await docker(plain, ['rm', '-f', name]);
}
