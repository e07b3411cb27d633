// bench/audit: what the audit log costs a batch of 100 container restarts (target: < 5 %).
// One built Berth in this process and a synthetic engine on loopback holding 100 running
// containers that restarts each at once (or after `delayMs`, closer to a real engine): the
// worst case for the audit log, whose rows (the request's and one per item) are then the
// largest share of the work. Batches alternate with the audit log on and off (its `record`
// swapped for a no-op: the hooks themselves stay), each timed from the POST until the job is
// stored as finished and the audit queue is written. Prints the median of each, Berth's CPU
// per batch, and the overhead against the target. Needs a build. Asserts nothing.
// Usage: node bench/audit.ts [rounds=15] [delayMs=0]
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const ROOT = resolve(import.meta.dirname, '..');
const dist = (path: string) => join(ROOT, 'packages/server/dist', path);
const { buildApp } = (await import(
  dist('app.js')
)) as typeof import('../packages/server/src/app.ts');
const { loadConfig } = (await import(
  dist('config/config.js')
)) as typeof import('../packages/server/src/config/config.ts');

const ROUNDS = Number(process.argv[2] ?? 15);
const DELAY_MS = Number(process.argv[3] ?? 0);
const CONTAINERS = 100;
const TARGET_PCT = 5;
const WARM_UP = 8;

/** The Engine API calls Berth makes of a host, for CONTAINERS running containers. */
function startEngine(): Promise<{ server: Server; port: number; restarts: () => number }> {
  const started = Date.now();
  let restarts = 0;
  const list = Array.from({ length: CONTAINERS }, (_, i) => ({
    id: `ad17${String(i).padStart(4, '0')}`.padEnd(64, 'b'),
    name: `audit-svc-${i}`,
  }));
  const byId = new Map(list.map((c) => [c.id, c]));
  const summary = (c: (typeof list)[number]) => ({
    Id: c.id,
    Names: [`/${c.name}`],
    Image: 'synthetic/app:1',
    State: 'running',
    Status: 'Up 2 hours',
    Created: Math.floor(started / 1000) - 7200,
    Labels: {},
    Ports: [],
  });
  const inspect = (c: (typeof list)[number]) => ({
    Id: c.id,
    Name: `/${c.name}`,
    Created: new Date(started - 7_200_000).toISOString(),
    State: {
      Status: 'running',
      Running: true,
      Pid: 0,
      ExitCode: 0,
      StartedAt: new Date().toISOString(),
      FinishedAt: '0001-01-01T00:00:00Z',
    },
    Config: { Image: 'synthetic/app:1', Env: [], Labels: {} },
    HostConfig: { RestartPolicy: { Name: 'no' } },
    Mounts: [],
    NetworkSettings: { Ports: {} },
  });
  /** The status and body of a read; restarts are answered apart. */
  const answer = (path: string): [number, unknown] => {
    if (path === '/_ping') return [200, 'OK'];
    if (path === '/version') return [200, { Version: '27.0.0', ApiVersion: '1.46' }];
    if (path === '/info') return [200, { NCPU: 8, MemTotal: 16 * 1024 ** 3 }];
    if (path === '/containers/json') return [200, list.map(summary)];
    const match = /^\/containers\/([^/]+)\/(json|stats)$/.exec(path);
    const c = match?.[1] === undefined ? undefined : byId.get(match[1]);
    if (c === undefined) return [404, { message: 'No such container' }];
    if (match?.[2] === 'json') return [200, inspect(c)];
    return [
      200,
      {
        read: new Date().toISOString(),
        cpu_stats: { cpu_usage: { total_usage: 1 }, system_cpu_usage: 1, online_cpus: 8 },
        memory_stats: { usage: 1, limit: 2, stats: {} },
      },
    ];
  };
  const server = createServer((req, res) => {
    const path = (req.url ?? '/').replace(/^\/v1\.\d+/, '').split('?')[0] ?? '/';
    if (path === '/events') {
      // Held open: nothing happens on a synthetic engine.
      res.writeHead(200, { 'content-type': 'application/json' });
      res.flushHeaders();
    } else if (/^\/containers\/[^/]+\/restart$/.test(path)) {
      restarts++;
      setTimeout(() => {
        res.writeHead(204);
        res.end();
      }, DELAY_MS);
    } else {
      const [status, body] = answer(path);
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(typeof body === 'string' ? body : JSON.stringify(body));
    }
  });
  return new Promise((done) =>
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address !== null ? address.port : 0;
      done({ server, port, restarts: () => restarts });
    }),
  );
}

const engine = await startEngine();
const dataDir = mkdtempSync(join(tmpdir(), 'berth-bench-audit-'));
const password = 'bench-admin-pass-1';
const app = await buildApp(
  loadConfig({
    BERTH_DATA_DIR: dataDir,
    BERTH_ADMIN_PASSWORD: password,
    BERTH_LOG_LEVEL: 'silent',
    BERTH_WEB_DIR: join(dataDir, 'no-web'),
    BERTH_LOCAL_SOCKET: 'none',
  }),
);

async function call(method: 'GET' | 'POST', url: string, cookie: string, payload?: object) {
  const res = await app.inject({
    method,
    url: `/api${url}`,
    headers: { cookie },
    ...(payload === undefined ? {} : { payload }),
  });
  if (res.statusCode >= 300) throw new Error(`${method} ${url}: ${res.statusCode} ${res.body}`);
  return res.json<Record<string, unknown>>();
}

const login = await app.inject({
  method: 'POST',
  url: '/api/v2/auth/login',
  payload: { username: 'admin', password },
});
const cookie = login.cookies.map((c) => `${c.name}=${c.value}`).join('; ');
await call('POST', '/v2/auth/change-password', cookie, {
  current_password: password,
  new_password: `${password}-changed`,
});
const host = await call('POST', '/hosts', cookie, {
  name: 'bench-audit',
  url: `tcp://127.0.0.1:${engine.port}`,
});
const hostId = String(host.id);
const keys = async () =>
  (await app.inject({ url: `/api/containers?host_id=${hostId}`, headers: { cookie } }))
    .json<{ id: string }[]>()
    .map((c) => `${hostId}:${c.id}`);
const waitStart = Date.now();
while ((await keys()).length < CONTAINERS) {
  if (Date.now() - waitStart > 30_000) throw new Error('containers not listed');
  await new Promise((r) => setTimeout(r, 100));
}
const ids = await keys();

const audit = app.services.audit;
// The audit log's own work, timed where it runs: queuing each row, and writing the batches.
let auditMs = 0;
const queue = audit.record.bind(audit);
const record: typeof audit.record = (entry) => {
  const t0 = performance.now();
  queue(entry);
  auditMs += performance.now() - t0;
};
const store = (
  audit as unknown as { deps: { store: { insertMany: (r: unknown[]) => Promise<void> } } }
).deps.store;
const insertMany = store.insertMany.bind(store);
store.insertMany = async (rows) => {
  const t0 = performance.now();
  await insertMany(rows);
  auditMs += performance.now() - t0;
};
const off = () => undefined;

/** One batch from its POST until it is stored finished and the audit queue is written. */
async function batch(): Promise<{ ms: number; cpuMs: number }> {
  const cpu = process.cpuUsage();
  const start = performance.now();
  const job = await call('POST', '/batch', cookie, { scope: 'container', action: 'restart', ids });
  const jobId = String(job.job_id);
  for (;;) {
    const state = await app.services.batch.get(jobId);
    if (state.status === 'completed' || state.status === 'failed') {
      if (state.success_items !== CONTAINERS) throw new Error(`batch: ${JSON.stringify(state)}`);
      break;
    }
    // Polled, not spun: a busy wait would count as Berth's CPU.
    await new Promise((r) => setTimeout(r, 2));
  }
  await audit.flush();
  const ms = performance.now() - start;
  const used = process.cpuUsage(cpu);
  return { ms, cpuMs: (used.user + used.system) / 1000 };
}

type Run = { ms: number; cpuMs: number };
const runs: { on: Run[]; off: Run[] } = { on: [], off: [] };
// Warm-up, not counted: the first batches run several times slower while the JIT settles.
for (let i = 0; i < WARM_UP; i++) {
  audit.record = i % 2 === 0 ? off : record;
  await batch();
}
auditMs = 0;
for (let i = 0; i < ROUNDS; i++)
  for (const mode of i % 2 === 0 ? (['on', 'off'] as const) : (['off', 'on'] as const)) {
    audit.record = mode === 'on' ? record : off;
    runs[mode].push(await batch());
  }
audit.record = record;

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 === 1 ? (s[mid] ?? 0) : ((s[mid - 1] ?? 0) + (s[mid] ?? 0)) / 2;
};
const on = { ms: median(runs.on.map((r) => r.ms)), cpu: median(runs.on.map((r) => r.cpuMs)) };
const offM = { ms: median(runs.off.map((r) => r.ms)), cpu: median(runs.off.map((r) => r.cpuMs)) };
const rows = (await call('GET', '/audit?action=container.restart&limit=1', cookie)).total_count;
const pctOf = (a: number, b: number) => ((a / b - 1) * 100).toFixed(1);
console.log(
  `bench/audit: ${ROUNDS} batches of ${CONTAINERS} restarts each way, engine delay ${DELAY_MS} ms ` +
    `(${engine.restarts()} restarts, ${String(rows)} audited)`,
);
console.log(
  `  audit off: median ${offM.ms.toFixed(1)} ms per batch, Berth CPU ${offM.cpu.toFixed(1)} ms`,
);
console.log(
  `  audit on:  median ${on.ms.toFixed(1)} ms per batch, Berth CPU ${on.cpu.toFixed(1)} ms`,
);
console.log(
  `  overhead: ${pctOf(on.ms, offM.ms)} % wall, ${pctOf(on.cpu, offM.cpu)} % CPU ` +
    `(target < ${TARGET_PCT} %)`,
);

const ownMs = auditMs / ROUNDS;
console.log(
  `  the audit log's own work: ${ownMs.toFixed(2)} ms per batch (${runs.on.length > 0 ? ((ownMs / offM.cpu) * 100).toFixed(1) : '?'} % of a batch's CPU without it)`,
);

await app.close();
engine.server.closeAllConnections();
engine.server.close();
rmSync(dataDir, { recursive: true, force: true });
