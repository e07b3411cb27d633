// bench/host-scopes: what a host scope costs a caller. One in-process Berth (from the tree's
// build: `npm run build -w @berth/server` there) with 40 hosts (addresses nothing listens on;
// half tagged `staging`, half `prod`), 20,000 events and 2,000 alerts spread over them; reads
// as the admin (every host) and as a viewer limited to `staging`, taking turns in short batches
// through Fastify's inject. Prints each read's p50/p95 per caller and the scoped minus admin p50.
// Usage: node bench/host-scopes.ts [<tree>] [--requests=2000]
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { machineSpeedMs } from './figures.ts';

interface Injected {
  statusCode: number;
  body: string;
  json(): unknown;
  cookies: { name: string; value: string }[];
}
interface Services {
  events: { record(e: object): Promise<unknown> };
  db: { insertInto(t: string): { values(v: object[]): { execute(): Promise<unknown> } } };
}
interface App {
  inject(opts: {
    method?: string;
    url: string;
    headers?: object;
    payload?: object;
  }): Promise<Injected>;
  services: Services;
  close(): Promise<void>;
}

const args = process.argv.slice(2);
const tree = resolve(args.find((a) => !a.startsWith('--')) ?? '.');
const REQUESTS = Number(args.find((a) => a.startsWith('--requests='))?.split('=')[1] ?? 2000);
const BATCH = 200;
const HOSTS = 40;
const EVENTS = 20_000;
const ALERTS = 2_000;
const PASSWORD = 'bench-pass-123';

const dist = join(tree, 'packages/server/dist');
const { buildApp } = (await import(pathToFileURL(join(dist, 'app.js')).href)) as {
  buildApp: (config: unknown) => Promise<App>;
};
const { loadConfig } = (await import(pathToFileURL(join(dist, 'config/config.js')).href)) as {
  loadConfig: (env: Record<string, string>) => unknown;
};
const dataDir = mkdtempSync(join(tmpdir(), 'berth-bench-scopes-'));
const app = await buildApp(
  loadConfig({
    BERTH_DATA_DIR: dataDir,
    BERTH_ADMIN_PASSWORD: PASSWORD,
    BERTH_LOG_LEVEL: 'silent',
    BERTH_WEB_DIR: join(dataDir, 'no-web'),
    BERTH_LOCAL_SOCKET: 'none',
  }),
);

async function signIn(username: string, password: string, next: string): Promise<string> {
  const login = await app.inject({
    method: 'POST',
    url: '/api/v2/auth/login',
    payload: { username, password },
  });
  const session = login.cookies.find((c) => c.name === 'berth_session');
  if (session === undefined) throw new Error(`sign-in of ${username} failed: ${login.body}`);
  const cookie = `berth_session=${session.value}`;
  await app.inject({
    method: 'POST',
    url: '/api/v2/auth/change-password',
    headers: { cookie },
    payload: { current_password: password, new_password: next },
  });
  return cookie;
}

const admin = await signIn('admin', PASSWORD, `${PASSWORD}-2`);
const hostIds: string[] = [];
for (let i = 0; i < HOSTS; i++) {
  const res = await app.inject({
    method: 'POST',
    url: '/api/hosts',
    headers: { cookie: admin },
    payload: {
      name: `h${i}`,
      url: `tcp://127.0.0.1:${1000 + i}`,
      tags: [i % 2 ? 'prod' : 'staging'],
    },
  });
  hostIds.push((res.json() as { id: string }).id);
}
const made = await app.inject({
  method: 'POST',
  url: '/api/users',
  headers: { cookie: admin },
  payload: { username: 'scoped', role: 'viewer', host_tags: ['staging'] },
});
const { password } = made.json() as { password: string };
const scoped = await signIn('scoped', password, `${PASSWORD}-3`);

const hostAt = (i: number) => hostIds[i % HOSTS] ?? '';
for (let i = 0; i < EVENTS; i++) {
  await app.services.events.record({
    severity: 'info',
    category: 'container',
    event_type: 'state_change',
    title: `event ${i}`,
    host_id: hostAt(i),
    host_name: `h${i % HOSTS}`,
  });
}
const now = new Date().toISOString();
await app.services.db
  .insertInto('alerts')
  .values(
    Array.from({ length: ALERTS }, (_, i) => ({
      id: `a${i}`,
      title: `alert ${i}`,
      kind: 'metric',
      state: i % 10 === 0 ? 'open' : 'resolved',
      severity: 'warning',
      scope_type: 'host',
      scope_id: hostAt(i),
      host_id: hostAt(i),
      first_seen: now,
      last_seen: now,
    })),
  )
  .execute();

const READS = [
  '/api/hosts',
  `/api/hosts/${hostIds[0] ?? ''}`,
  '/api/containers',
  '/api/events?limit=50',
  '/api/alerts?page_size=50',
  '/api/alerts/stats',
];
const callers = { admin, scoped };
const times = new Map<string, number[]>();
async function run(n: number, record: boolean) {
  for (const [who, cookie] of Object.entries(callers)) {
    for (let i = 0; i < n; i++) {
      for (const url of READS) {
        const started = performance.now();
        const res = await app.inject({ url, headers: { cookie } });
        if (res.statusCode !== 200) throw new Error(`${who} GET ${url}: ${res.statusCode}`);
        const key = `${who} ${url}`;
        if (record) times.set(key, [...(times.get(key) ?? []), performance.now() - started]);
      }
    }
  }
}
await run(200, false);
const speedBefore = machineSpeedMs();
for (let done = 0; done < REQUESTS; done += BATCH)
  await run(Math.min(BATCH, REQUESTS - done), true);
const speedAfter = machineSpeedMs();

const pct = (xs: number[], p: number) => {
  const sorted = [...xs].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))] ?? NaN;
};
const ms = (n: number) => n.toFixed(3);
console.log(
  `bench/host-scopes: ${REQUESTS} reads of each route per caller; ${HOSTS} hosts (half in scope), ${EVENTS} events, ${ALERTS} alerts`,
);
console.log(
  `  machine speed: ${speedBefore.toFixed(0)} ms before, ${speedAfter.toFixed(0)} ms after`,
);
for (const url of READS) {
  const a = times.get(`admin ${url}`) ?? [];
  const s = times.get(`scoped ${url}`) ?? [];
  console.log(
    `  GET ${url.replace(hostIds[0] ?? '', ':id').padEnd(26)} admin p50 ${ms(pct(a, 50))} p95 ${ms(pct(a, 95))}  scoped p50 ${ms(pct(s, 50))} p95 ${ms(pct(s, 95))}  delta p50 ${ms(pct(s, 50) - pct(a, 50))} ms`,
  );
}
await app.close();
rmSync(dataDir, { recursive: true, force: true });
process.exit(0);
