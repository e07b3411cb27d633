import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createServer } from 'node:net';
import { fileURLToPath } from 'node:url';
import { CHANGED_PASSWORD, TEST_ADMIN } from './test-app.js';
import { waitFor } from './wait.js';

/** The built server; scripts/test.sh builds before vitest, a bare run builds it here. */
export const SERVER_MAIN = fileURLToPath(new URL('../../dist/main.js', import.meta.url));
const ROOT = fileURLToPath(new URL('../../../../', import.meta.url));

/** Builds the server unless `entry` (dist/main.js, or another file of dist) is there. */
export function ensureServerBuilt(entry = SERVER_MAIN): void {
  if (existsSync(entry)) return;
  for (const ws of ['@berth/contracts', '@berth/server'])
    execFileSync('npm', ['run', 'build', '-w', ws], { cwd: ROOT, stdio: 'ignore' });
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const address = srv.address();
      const port = typeof address === 'object' && address !== null ? address.port : 0;
      srv.close(() => resolve(port));
    });
  });
}

export interface ServerProcess {
  child: ChildProcess;
  base: string;
  /** stdout and stderr so far. */
  output: () => string;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

export interface ServerOptions {
  nodeArgs?: string[];
  /** Added to (or replacing) the test defaults: no local socket, warn level. */
  env?: Record<string, string>;
  /** Run as another user (tests run as root): supplementary groups are dropped. */
  uid?: number;
  gid?: number;
}

/** The environment a test server starts with on a data directory and port. */
export function serverEnv(dataDir: string, port: number, env: Record<string, string> = {}) {
  return {
    ...process.env,
    BERTH_DATA_DIR: dataDir,
    BERTH_PORT: String(port),
    BERTH_HOST: '127.0.0.1',
    BERTH_ADMIN_PASSWORD: TEST_ADMIN.password,
    BERTH_LOCAL_SOCKET: 'none',
    BERTH_LOG_LEVEL: 'warn',
    ...env,
  };
}

/** Starts dist/main.js on a data directory and waits until /api/health answers. */
export async function startServer(
  dataDir: string,
  opts: ServerOptions = {},
): Promise<ServerProcess> {
  const port = await freePort();
  const child = spawn(process.execPath, [...(opts.nodeArgs ?? []), SERVER_MAIN], {
    env: serverEnv(dataDir, port, opts.env),
    stdio: ['ignore', 'pipe', 'pipe'],
    ...(opts.uid === undefined ? {} : { uid: opts.uid }),
    ...(opts.gid === undefined ? {} : { gid: opts.gid }),
  });
  let out = '';
  child.stdout.on('data', (b: Buffer) => (out += b.toString('utf8')));
  child.stderr.on('data', (b: Buffer) => (out += b.toString('utf8')));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal })),
  );
  const base = `http://127.0.0.1:${port}`;
  await waitFor(
    'the server to answer',
    async () => {
      if (child.exitCode !== null) throw new Error(`server exited ${child.exitCode}: ${out}`);
      return (await fetch(`${base}/api/health`)).ok;
    },
    20_000,
    100,
  );
  return { child, base, output: () => out, exited };
}

/** SIGTERM, then SIGKILL if it has not gone within 5 s. */
export async function stopServer(server: ServerProcess): Promise<void> {
  if (server.child.exitCode !== null || server.child.signalCode !== null) return;
  server.child.kill('SIGTERM');
  const timer = setTimeout(() => server.child.kill('SIGKILL'), 5000);
  await server.exited;
  clearTimeout(timer);
}

export interface HttpAnswer<T> {
  status: number;
  body: T;
}

/** A JSON client over real HTTP with a session cookie (no Origin header, like a script). */
export function httpApi(base: string, cookie: string) {
  return async <T = unknown>(method: string, path: string, body?: unknown) => {
    const res = await fetch(`${base}/api${path}`, {
      method,
      headers: {
        cookie,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    return { status: res.status, body: (await res.json()) as T } satisfies HttpAnswer<T>;
  };
}

async function loginOverHttp(base: string, password: string): Promise<string> {
  const res = await fetch(`${base}/api/v2/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username: TEST_ADMIN.username, password }),
  });
  const cookie = res.headers.getSetCookie().find((c) => c.startsWith('berth_session='));
  if (res.status !== 200 || cookie === undefined) throw new Error(`login failed: ${res.status}`);
  return cookie.split(';')[0] ?? '';
}

/** First start: signs in with the bootstrap password and completes the forced change. */
export async function signInFirstTime(base: string): Promise<string> {
  const cookie = await loginOverHttp(base, TEST_ADMIN.password);
  const res = await httpApi(base, cookie)('POST', '/v2/auth/change-password', {
    current_password: TEST_ADMIN.password,
    new_password: CHANGED_PASSWORD,
  });
  if (res.status !== 200) throw new Error(`password change failed: ${JSON.stringify(res.body)}`);
  return cookie;
}

/** Later starts: the password was changed already. */
export const signInAgain = (base: string) => loginOverHttp(base, CHANGED_PASSWORD);
