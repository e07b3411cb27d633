// bench/api-keys: what an API key costs a request beside a session cookie. One built Berth on
// loopback, a light read (GET /api/hosts, no hosts) sent alternately with the session cookie
// and with `Authorization: Bearer <key>` over kept-alive connections, one at a time, so the
// two see the same machine at the same moments. Prints p50/p95 of each and the p50 difference
// against the target (within 0.2 ms). Needs a build.
// Usage: node bench/api-keys.ts [requestsEach=5000] [path=/hosts]
import { Agent, request } from 'node:http';
import { startBerth } from './berth-process.ts';
import { f1, machineSpeedMs, pct } from './figures.ts';

const EACH = Number(process.argv[2] ?? 5000);
const PATH = process.argv[3] ?? '/hosts';
const WARM_UP = 500;
const PORT = 18_741;
const TARGET_MS = 0.2;
const f3 = (n: number) => n.toFixed(3);

const berth = await startBerth(PORT);
const created = await berth.api('/api-keys', { name: 'bench', scope: 'read' });
const key = (created.body as { key?: string }).key;
if (created.res.status !== 201 || key === undefined) throw new Error('could not create a key');

const agents = { cookie: new Agent({ keepAlive: true }), bearer: new Agent({ keepAlive: true }) };
const headers = { cookie: { cookie: berth.cookie }, bearer: { authorization: `Bearer ${key}` } };
type Way = keyof typeof headers;

/** One GET from the request until its last byte; refuses anything but a 200. */
function timed(way: Way): Promise<number> {
  return new Promise((resolve, reject) => {
    const start = performance.now();
    const req = request(
      `${berth.base}/api${PATH}`,
      { agent: agents[way], headers: headers[way] },
      (res) => {
        res.resume();
        res.on('end', () =>
          res.statusCode === 200
            ? resolve(performance.now() - start)
            : reject(new Error(`${way}: ${res.statusCode}`)),
        );
        res.on('error', reject);
      },
    );
    req.setTimeout(10_000, () => req.destroy(new Error(`${way}: timed out`)));
    req.on('error', reject);
    req.end();
  });
}

try {
  for (let i = 0; i < WARM_UP; i++) {
    await timed('cookie');
    await timed('bearer');
  }
  const times: Record<Way, number[]> = { cookie: [], bearer: [] };
  for (let i = 0; i < EACH; i++) {
    // Which goes first alternates, so neither always follows the other's garbage.
    const order: Way[] = i % 2 === 0 ? ['cookie', 'bearer'] : ['bearer', 'cookie'];
    for (const way of order) times[way].push(await timed(way));
  }
  console.log(
    `bench/api-keys: GET /api${PATH}, ${EACH} requests each way after ${WARM_UP} warm-up, one at a time, kept-alive`,
  );
  console.log(`  machine speed: ${f1(machineSpeedMs())} ms (bench/figures.ts)`);
  for (const way of ['cookie', 'bearer'] as const) {
    const ms = times[way];
    console.log(
      `  ${way.padEnd(7)} p50 ${f3(pct(ms, 50))} ms, p95 ${f3(pct(ms, 95))} ms, p99 ${f3(pct(ms, 99))} ms`,
    );
  }
  const diff = pct(times.bearer, 50) - pct(times.cookie, 50);
  console.log(
    `  bearer − cookie p50: ${f3(diff)} ms (target within ${TARGET_MS} ms: ${Math.abs(diff) <= TARGET_MS ? 'met' : 'missed'})`,
  );
} finally {
  agents.cookie.destroy();
  agents.bearer.destroy();
  berth.stop();
}
process.exit(0);
