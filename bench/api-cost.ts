// bench/api-cost: the server's own CPU time per answer to small, frequent API calls (the
// session check, preferences, the host list), asked one after another on a kept-alive
// connection. No engines: what is measured is the HTTP, session and database path.
// Needs a server build (`npm run build`).
// Usage: node bench/api-cost.ts [requestsPerPath=8000]
import { startBerth, timeAnswer } from './berth-process.ts';
import { cpuTicks, f1, TICK_HZ } from './figures.ts';

const REQUESTS = Number(process.argv[2] ?? 8000);
const PATHS = ['/v2/auth/me', '/v2/user/preferences', '/hosts'];

const berth = await startBerth(18_730);
await berth.api('/hosts'); // signs in
for (let i = 0; i < 2000; i++) await timeAnswer(berth, PATHS[i % PATHS.length] ?? '/hosts');
const pid = berth.child.pid ?? 0;

console.log(`bench/api-cost: ${REQUESTS} requests per path, one at a time`);
for (const path of PATHS) {
  const ticks = cpuTicks([pid]);
  const started = performance.now();
  for (let i = 0; i < REQUESTS; i++) await timeAnswer(berth, path);
  const cpuUs = (((cpuTicks([pid]) - ticks) / TICK_HZ) * 1e6) / REQUESTS;
  const wallUs = ((performance.now() - started) * 1000) / REQUESTS;
  console.log(`  GET /api${path}: server CPU ${f1(cpuUs)} µs per answer, ${f1(wallUs)} µs each`);
}
berth.stop();
process.exit(0);
