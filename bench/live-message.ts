// bench/live-message: what one containers_update costs a page's main thread, in CPU time,
// for one or more web builds run in turn (the figure varies by a third between runs of the
// same build, so builds are compared over several alternations). Uses the containers already
// on the rig: `node bench/containers.ts 1000 300 100 --keep` leaves 1,000 there.
// Usage: node bench/live-message.ts [path=/containers] [rounds=3] [windowS=60] [dist ...]
// Each dist is a built web app (default: packages/web/dist); copy a build aside to compare.
import { resolve } from 'node:path';
import { openSignedInPage } from './berth-process.ts';
import { keepOffBrowserCore, pinningNote } from './cpu-pin.ts';
import { f1, startBerthWithRig } from './rig.ts';

const PATH = process.argv[2] ?? '/containers';
const ROUNDS = Number(process.argv[3] ?? 3);
const WINDOW_S = Number(process.argv[4] ?? 60);
const DISTS = process.argv.slice(5);
if (DISTS.length === 0) DISTS.push(resolve(import.meta.dirname, '../packages/web/dist'));
/** The page settles after its first render (V8 shrinks its heap meanwhile: decision 010). */
const SETTLE_S = 40;
const PORT = 18_723;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

interface Run {
  cpu: number;
  task: number;
  messages: number;
  bytes: number;
}

async function measure(dist: string): Promise<Run> {
  process.env.BERTH_WEB_DIR = dist;
  const berth = await startBerthWithRig(PORT);
  const unpin = keepOffBrowserCore([berth.child.pid]);
  const { browser, page } = await openSignedInPage(berth);
  try {
    let counting = false;
    let messages = 0;
    let bytes = 0;
    page.on('websocket', (ws) =>
      ws.on('framereceived', ({ payload }) => {
        const text = String(payload);
        if (!counting || !text.startsWith('{"type":"containers_update"')) return;
        messages++;
        bytes += Buffer.byteLength(text);
      }),
    );
    await page.goto(`${berth.base}${PATH}`);
    await sleep(SETTLE_S * 1000);
    // The list's own refetch answered from the network is refused, as in bench/containers.
    await page.route('**/api/containers*', (route) => route.abort());
    const cdp = await page.context().newCDPSession(page);
    await cdp.send('Performance.enable');
    const read = async () => {
      const { metrics } = await cdp.send('Performance.getMetrics');
      const of = (name: string) => metrics.find((m) => m.name === name)?.value ?? 0;
      return { cpu: of('ThreadTime'), task: of('TaskDuration') };
    };
    const before = await read();
    counting = true;
    await sleep(WINDOW_S * 1000);
    counting = false;
    const after = await read();
    return {
      cpu: (after.cpu - before.cpu) * 1000,
      task: (after.task - before.task) * 1000,
      messages,
      bytes,
    };
  } finally {
    await browser.close();
    unpin();
    berth.stop();
  }
}

console.log(`bench/live-message: ${PATH}, ${WINDOW_S} s windows; ${pinningNote}`);
const runs = new Map<string, Run[]>(DISTS.map((d) => [d, []]));
for (let round = 0; round < ROUNDS; round++) {
  for (const dist of DISTS) {
    const run = await measure(dist);
    runs.get(dist)?.push(run);
    const per = (ms: number) => f1(ms / Math.max(1, run.messages));
    console.log(
      `  ${dist}: ${per(run.cpu)} ms of CPU, ${per(run.task)} ms of tasks per message ` +
        `(${run.messages} messages, ${f1(run.bytes / Math.max(1, run.messages) / 1024)} KB each)`,
    );
  }
}
for (const [dist, list] of runs) {
  const cpu = list.map((r) => r.cpu / Math.max(1, r.messages)).sort((a, b) => a - b);
  const mean = cpu.reduce((s, v) => s + v, 0) / Math.max(1, cpu.length);
  console.log(
    `${dist}: main thread CPU per live message, mean ${f1(mean)} ms, ` +
      `min ${f1(cpu[0] ?? 0)}, max ${f1(cpu.at(-1) ?? 0)} over ${cpu.length} runs (target < 4 ms)`,
  );
}
process.exit(0);
