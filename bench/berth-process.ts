// Starts the built Berth server for a benchmark, signed in and past the first-login step.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { chromiumExecutable } from './cpu-pin.ts';

const ROOT = resolve(import.meta.dirname, '..');
/** The server to run: the build in the tree unless BERTH_BENCH_SERVER names another main.js. */
const SERVER_MAIN = process.env.BERTH_BENCH_SERVER ?? join(ROOT, 'packages/server/dist/main.js');
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export interface BerthProcess {
  child: ChildProcess;
  base: string;
  cookie: string;
  /** Calls the API; `method` defaults to POST with a body and GET without. */
  api: (path: string, body?: unknown, method?: string) => Promise<{ res: Response; body: unknown }>;
  stop: () => void;
  /**
   * Stops the server (SIGTERM) and starts it again on the same data directory and port, as an
   * operator's restart does; resolves with when the old one had exited and the new one
   * answered /api/health (performance.now()). The session survives it (server-side). `env`
   * adds to (or overrides) the environment the server started with, from this start on.
   */
  restart: (env?: Record<string, string>) => Promise<{ exitedAt: number; readyAt: number }>;
}

async function waitForHealth(base: string): Promise<void> {
  for (let i = 0; i < 200; i++) {
    try {
      if ((await fetch(`${base}/api/health`)).ok) return;
    } catch {
      // not listening yet
    }
    await sleep(50);
  }
}

export async function startBerth(
  port: number,
  startEnv: Record<string, string> = {},
): Promise<BerthProcess> {
  const env = { ...startEnv };
  const base = `http://127.0.0.1:${port}`;
  const dataDir = mkdtempSync(join(tmpdir(), 'berth-bench-'));
  const spawnServer = () =>
    spawn(process.execPath, ['--max-semi-space-size=2', SERVER_MAIN], {
      env: {
        ...process.env,
        BERTH_PORT: String(port),
        BERTH_HOST: '127.0.0.1',
        BERTH_DATA_DIR: dataDir,
        BERTH_ADMIN_PASSWORD: 'bench-pass-1',
        BERTH_LOG_LEVEL: 'warn',
        BERTH_LOCAL_SOCKET: 'none',
        ...env,
      },
      stdio: 'inherit',
    });
  let child = spawnServer();
  // A benchmark that throws must not leave its server behind, polling the engines and taking
  // CPU from every run after it (one was found fifteen minutes later, skewing two runs).
  const stopOnExit = () => child.kill('SIGTERM');
  process.once('exit', stopOnExit);
  await waitForHealth(base);
  let cookie = '';
  const api: BerthProcess['api'] = async (path, body, method) => {
    const res = await fetch(`${base}/api${path}`, {
      method: method ?? (body === undefined ? 'GET' : 'POST'),
      headers: { 'content-type': 'application/json', cookie },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    cookie = res.headers.get('set-cookie')?.split(';')[0] ?? cookie;
    const text = await res.text();
    return { res, body: text === '' ? null : (JSON.parse(text) as unknown) };
  };
  await api('/v2/auth/login', { username: 'admin', password: 'bench-pass-1' });
  await api('/v2/auth/change-password', {
    current_password: 'bench-pass-1',
    new_password: 'bench-pass-2',
  });
  return {
    get child() {
      return child;
    },
    base,
    get cookie() {
      return cookie;
    },
    api,
    stop: () => {
      process.off('exit', stopOnExit);
      child.kill('SIGTERM');
      rmSync(dataDir, { recursive: true, force: true });
    },
    restart: async (more = {}) => {
      Object.assign(env, more);
      if (child.exitCode === null && child.signalCode === null) {
        const exited = new Promise((resolve) => child.once('exit', resolve));
        child.kill('SIGTERM');
        await exited;
      }
      const exitedAt = performance.now();
      child = spawnServer();
      await waitForHealth(base);
      return { exitedAt, readyAt: performance.now() };
    },
  };
}

const keepAlive = new Agent({ keepAlive: true });

/**
 * Times one GET of the API as a browser receives it: compressed as a browser accepts, from the
 * request until the last byte, over a kept-alive connection. The body is not decoded: Node's
 * fetch decompresses in the bench's own process, and that (with its garbage) made up most of
 * its p95 for the container list, not the server's answer (a browser decodes natively).
 */
/**
 * Registers `count` engines listening on ports from `firstPort` (fake-engine.ts) as hosts, and
 * waits until every one is online with its `perHost` containers listed: up to a minute, as on
 * a loaded machine fifty engines take longer than 20 s to list.
 */
export async function addEngineHosts(
  berth: BerthProcess,
  count: number,
  firstPort: number,
  perHost: number,
  host: (i: number) => { name: string; tags?: string[] },
): Promise<void> {
  for (let i = 0; i < count; i++)
    await berth.api('/hosts', { ...host(i), url: `tcp://127.0.0.1:${firstPort + i}` });
  for (let i = 0; i < 300; i++) {
    const { body } = await berth.api('/containers');
    if (Array.isArray(body) && body.length >= count * perHost) return;
    await sleep(200);
  }
}

export function timeAnswer(
  berth: BerthProcess,
  path: string,
): Promise<{ ms: number; bytes: number; status: number }> {
  return new Promise((resolve, reject) => {
    const start = performance.now();
    const headers = { cookie: berth.cookie, 'accept-encoding': 'gzip, deflate, br, zstd' };
    const req = request(`${berth.base}/api${path}`, { agent: keepAlive, headers }, (res) => {
      let bytes = 0;
      res.on('data', (chunk: Buffer) => (bytes += chunk.length));
      res.on('end', () =>
        resolve({ ms: performance.now() - start, bytes, status: res.statusCode ?? 0 }),
      );
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

/** Debian's Chromium, as the benches run it. */
export async function launchChromium() {
  const { chromium } = await import('@playwright/test');
  return chromium.launch({
    executablePath: chromiumExecutable(),
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run'],
  });
}

/**
 * One page signed in to `berth` (the cookie of its API client), in a fresh context (nothing
 * cached) of `shared`, or of a browser of its own when none is given.
 */
export async function openSignedInPage(
  berth: BerthProcess,
  width = 1440,
  height = 900,
  shared?: Awaited<ReturnType<typeof launchChromium>>,
) {
  const browser = shared ?? (await launchChromium());
  // Playwright evaluates string predicates, which Berth's CSP (no 'unsafe-eval') refuses.
  const context = await browser.newContext({ viewport: { width, height }, bypassCSP: true });
  await context.addCookies([
    {
      name: berth.cookie.split('=')[0] ?? '',
      value: berth.cookie.split('=').slice(1).join('='),
      url: berth.base,
    },
  ]);
  return { browser, context, page: await context.newPage() };
}
