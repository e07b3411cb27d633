// bench/api-latency-auth: what every authenticated read pays for its checks (the session, the
// route's permission against the caller's role, the host scope). Builds one in-process Berth
// per source tree given (each from its own build: `npm run build -w @berth/server` there), signs
// in with a cookie session and sends typical reads through Fastify's inject, so no socket or
// client noise is in the figures; the trees take turns in short batches so a drift of this
// VM's speed falls on all of them alike. Prints each read's p50/p95 per tree and the p50 delta.
// Usage: node bench/api-latency-auth.ts <tree> [<tree> ...] [--requests=5000]
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { machineSpeedMs } from './figures.ts';

interface Injected {
  statusCode: number;
  body: string;
  cookies: { name: string; value: string }[];
}
interface App {
  inject(opts: {
    method?: string;
    url: string;
    headers?: object;
    payload?: object;
  }): Promise<Injected>;
  close(): Promise<void>;
}

const args = process.argv.slice(2);
const trees = args.filter((a) => !a.startsWith('--')).map((t) => resolve(t));
const REQUESTS = Number(args.find((a) => a.startsWith('--requests='))?.split('=')[1] ?? 5000);
const BATCH = 250;
const WARM_UP = 500;
const PASSWORD = 'bench-pass-123';
// Reads a dashboard asks for, present before route permissions existed and since.
const READS = [
  '/api/v2/auth/me',
  '/api/hosts',
  '/api/containers',
  '/api/settings',
  '/api/events?limit=50',
];
if (trees.length === 0)
  throw new Error('usage: node bench/api-latency-auth.ts <tree> [<tree> ...]');

async function start(tree: string) {
  const dist = join(tree, 'packages/server/dist');
  const { buildApp } = (await import(pathToFileURL(join(dist, 'app.js')).href)) as {
    buildApp: (config: unknown) => Promise<App>;
  };
  const { loadConfig } = (await import(pathToFileURL(join(dist, 'config/config.js')).href)) as {
    loadConfig: (env: Record<string, string>) => unknown;
  };
  const dataDir = mkdtempSync(join(tmpdir(), 'berth-bench-auth-'));
  const app = await buildApp(
    loadConfig({
      BERTH_DATA_DIR: dataDir,
      BERTH_ADMIN_PASSWORD: PASSWORD,
      BERTH_LOG_LEVEL: 'silent',
      BERTH_WEB_DIR: join(dataDir, 'no-web'),
      BERTH_LOCAL_SOCKET: 'none',
    }),
  );
  const login = await app.inject({
    method: 'POST',
    url: '/api/v2/auth/login',
    payload: { username: 'admin', password: PASSWORD },
  });
  const session = login.cookies.find((c) => c.name === 'berth_session');
  if (session === undefined) throw new Error(`${tree}: sign-in failed: ${login.body}`);
  const cookie = `berth_session=${session.value}`;
  // The first sign-in must change the password before anything else answers.
  await app.inject({
    method: 'POST',
    url: '/api/v2/auth/change-password',
    headers: { cookie },
    payload: { current_password: PASSWORD, new_password: `${PASSWORD}-2` },
  });
  for (const url of READS) {
    const res = await app.inject({ url, headers: { cookie } });
    if (res.statusCode !== 200) throw new Error(`${tree}: GET ${url} answered ${res.statusCode}`);
  }
  const times = new Map<string, number[]>(READS.map((url) => [url, []]));
  return {
    tree,
    async run(n: number, record: boolean) {
      for (let i = 0; i < n; i++) {
        for (const url of READS) {
          const started = performance.now();
          await app.inject({ url, headers: { cookie } });
          if (record) times.get(url)?.push(performance.now() - started);
        }
      }
    },
    times,
    close: async () => {
      await app.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

const pct = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))] ?? NaN;
const ms = (n: number) => n.toFixed(3);

const apps = [];
for (const tree of trees) apps.push(await start(tree));
for (const app of apps) await app.run(WARM_UP, false);
const speedBefore = machineSpeedMs();
for (let done = 0; done < REQUESTS; done += BATCH) {
  for (const app of apps) await app.run(Math.min(BATCH, REQUESTS - done), true);
}
const speedAfter = machineSpeedMs();

console.log(
  `bench/api-latency-auth: ${REQUESTS} reads of each route per tree, cookie session, in-process inject`,
);
console.log(
  `  machine speed: ${speedBefore.toFixed(0)} ms before, ${speedAfter.toFixed(0)} ms after`,
);
const p50s = new Map<string, number[]>();
for (const app of apps) {
  console.log(`  ${app.tree}`);
  const all: number[] = [];
  for (const [url, xs] of app.times) {
    const sorted = [...xs].sort((a, b) => a - b);
    all.push(...xs);
    p50s.set(url, [...(p50s.get(url) ?? []), pct(sorted, 50)]);
    console.log(
      `    GET ${url.padEnd(24)} p50 ${ms(pct(sorted, 50))} ms  p95 ${ms(pct(sorted, 95))} ms`,
    );
  }
  const sorted = all.sort((a, b) => a - b);
  p50s.set('all', [...(p50s.get('all') ?? []), pct(sorted, 50)]);
  console.log(
    `    ${'all reads'.padEnd(28)} p50 ${ms(pct(sorted, 50))} ms  p95 ${ms(pct(sorted, 95))} ms`,
  );
}
if (apps.length > 1) {
  console.log(`  p50 delta, last tree minus first:`);
  for (const [url, xs] of p50s) {
    const delta = (xs.at(-1) ?? NaN) - (xs[0] ?? NaN);
    console.log(`    ${url.padEnd(28)} ${delta >= 0 ? '+' : ''}${ms(delta)} ms`);
  }
}
for (const app of apps) await app.close();
process.exit(0);
