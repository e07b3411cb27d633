// bench/live-scopes: what host scopes cost the live channel (issue 50's measure). 50 fake
// engines × 20 running containers (fake-engine.ts, stats growing on every pass) are watched by
// one Berth; its CPU is measured over a window with 50 sockets of one admin open, then with 50
// sockets of 50 operators in 3 scopes (hosts tagged scope-0..2 round robin, each user
// limited to one tag), alternating, so a drift of the shared machine falls on both. Target:
// scoped ≤ 1.3× admin. Also prints what each socket received per window (messages, bytes),
// and checks that no scoped socket (one per scope) got a message naming a host outside it.
// Needs a build of the server (`npm run build`; BERTH_BENCH_SERVER may name another main.js).
// Prints figures; asserts nothing. About 4 minutes with the defaults.
// Usage: node bench/live-scopes.ts [hosts=50] [containersPerHost=20] [sockets=50] [windowSeconds=30] [rounds=2]
import { loadavg } from 'node:os';
import type { Host } from '@berth/contracts';
import { addEngineHosts, startBerth, type BerthProcess } from './berth-process.ts';
import { startFakeEnginesApart } from './fake-engine.ts';
import { cpuTicks, f1, machineSpeedMs, TICK_HZ } from './figures.ts';

const HOSTS = Number(process.argv[2] ?? 50);
const PER_HOST = Number(process.argv[3] ?? 20);
const SOCKETS = Number(process.argv[4] ?? 50);
const WINDOW_S = Number(process.argv[5] ?? 30);
const ROUNDS = Number(process.argv[6] ?? 2);
const SCOPES = 3;
const WARM_UP_MS = 5_000;
const PORT = 18_870;
const ENGINE_PORT = 19_700;
const PASSWORD = 'bench-scope-pass-1';

const say = (line: string) => console.log(line);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const load = () =>
  loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');

/** A session cookie for a new operator limited to one tag, past its first-login change. */
async function operatorCookie(berth: BerthProcess, i: number, tag: string): Promise<string> {
  const created = await berth.api('/users', {
    username: `scoped-${i}`,
    role: 'operator',
    host_tags: [tag],
  });
  if (!created.res.ok) throw new Error(`creating a user: ${JSON.stringify(created.body)}`);
  const { password } = created.body as { password: string };
  // Not through berth.api: it keeps the admin's cookie.
  const call = (path: string, body: unknown, cookie = '') =>
    fetch(`${berth.base}/api${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', cookie },
      body: JSON.stringify(body),
    });
  const login = await call('/v2/auth/login', { username: `scoped-${i}`, password });
  const cookie = login.headers.get('set-cookie')?.split(';')[0] ?? '';
  const changed = await call(
    '/v2/auth/change-password',
    { current_password: password, new_password: PASSWORD },
    cookie,
  );
  if (!changed.ok) throw new Error(`first-login change: ${await changed.text()}`);
  return cookie;
}

interface Socket {
  messages: number;
  bytes: number;
  /** Host ids the socket may not hear of that it did (scoped sockets only). */
  leaks: number;
  close: () => void;
}

/** A browser's socket (protocol 2, sparklines shown), counting what it receives. */
async function openSocket(berth: BerthProcess, cookie: string, outside: string[]) {
  const ws = new WebSocket(`${berth.base.replace(/^http/, 'ws')}/ws/?protocol=2`, {
    headers: { cookie },
  });
  const s: Socket = { messages: 0, bytes: 0, leaks: 0, close: () => ws.close() };
  ws.onmessage = (ev) => {
    const text = String(ev.data);
    s.messages++;
    s.bytes += text.length;
    for (const id of outside) if (text.includes(id)) s.leaks++;
  };
  await new Promise((resolve, reject) => {
    ws.onopen = resolve;
    ws.onerror = reject;
  });
  return s;
}

interface Window {
  cpu: number;
  messages: number;
  kbPerSocket: number;
  leaks: number;
}

/** Berth's CPU (% of a core) over a window with these sockets open, after a warm-up. */
async function measure(berth: BerthProcess, open: () => Promise<Socket[]>): Promise<Window> {
  const sockets = await open();
  await sleep(WARM_UP_MS);
  for (const s of sockets) s.bytes = s.messages = s.leaks = 0;
  const pid = berth.child.pid ?? 0;
  const before = cpuTicks([pid]);
  await sleep(WINDOW_S * 1000);
  const ticks = cpuTicks([pid]) - before;
  const sum = (f: (s: Socket) => number) => sockets.reduce((a, s) => a + f(s), 0);
  const figures = {
    cpu: (ticks / TICK_HZ / WINDOW_S) * 100,
    messages: sum((s) => s.messages) / sockets.length,
    kbPerSocket: sum((s) => s.bytes) / sockets.length / 1024,
    leaks: sum((s) => s.leaks),
  };
  for (const s of sockets) s.close();
  await sleep(1000);
  return figures;
}

say(
  `bench/live-scopes: node ${process.version}, ${new Date().toISOString()}, load ${load()}, ` +
    `machine speed ${f1(machineSpeedMs())} ms`,
);
const engines = await startFakeEnginesApart(HOSTS, ENGINE_PORT, PER_HOST, 's');
const berth = await startBerth(PORT, { BERTH_STATS_SOURCE: 'api' });
try {
  const tagOf = (i: number) => `scope-${i % SCOPES}`;
  await addEngineHosts(berth, HOSTS, ENGINE_PORT, PER_HOST, (i) => ({
    name: `scoped-host-${i}`,
    tags: [tagOf(i)],
  }));
  const hosts = (await berth.api('/hosts')).body as Host[];
  say(`${hosts.length} hosts in ${SCOPES} scopes, ${HOSTS * PER_HOST} containers; users…`);
  const users: { cookie: string; outside: string[] }[] = [];
  for (let i = 0; i < SOCKETS; i++) {
    const tag = tagOf(i);
    const outside = hosts.filter((h) => !h.tags.includes(tag)).map((h) => h.id);
    users.push({ cookie: await operatorCookie(berth, i, tag), outside });
  }
  const admin = () => Promise.all(users.map(() => openSocket(berth, berth.cookie, [])));
  // One socket per scope looks for host ids out of its scope in every message it gets.
  const scoped = () =>
    Promise.all(users.map((u, i) => openSocket(berth, u.cookie, i < SCOPES ? u.outside : [])));
  const runs: { admin: Window; scoped: Window }[] = [];
  for (let round = 1; round <= ROUNDS; round++) {
    say(`round ${round}: ${SOCKETS} admin sockets, ${WINDOW_S} s (load ${load()})`);
    const a = await measure(berth, admin);
    say(`round ${round}: ${SOCKETS} scoped sockets, ${WINDOW_S} s (load ${load()})`);
    const s = await measure(berth, scoped);
    runs.push({ admin: a, scoped: s });
  }
  say('');
  say(`${HOSTS} hosts × ${PER_HOST} containers, ${SOCKETS} sockets, ${WINDOW_S} s windows:`);
  for (const [i, r] of runs.entries()) {
    const line = (name: string, w: Window) =>
      `   ${name}: Berth CPU ${f1(w.cpu)} % of a core; per socket ${f1(w.messages)} messages, ` +
      `${f1(w.kbPerSocket)} KB` +
      (name === 'scoped' ? `; messages naming a host out of scope: ${w.leaks}` : '');
    say(`round ${i + 1}:`);
    say(line('admin ', r.admin));
    say(line('scoped', r.scoped));
    say(`   scoped / admin: ${(r.scoped.cpu / r.admin.cpu).toFixed(2)}×`);
  }
  const total = (f: (r: { admin: Window; scoped: Window }) => number) =>
    runs.reduce((a, r) => a + f(r), 0);
  const ratio = total((r) => r.scoped.cpu) / total((r) => r.admin.cpu);
  say(
    `all rounds: scoped / admin Berth CPU ${ratio.toFixed(2)}× (target ≤ 1.3×: ` +
      `${ratio <= 1.3 ? 'met' : 'MISSED'}); leaks ${total((r) => r.scoped.leaks)}; load ${load()}`,
  );
} finally {
  berth.stop();
  await engines.close();
}
