// bench/table-first-render: how long the containers table takes from navigation to its rows,
// for one or more web builds run in turn (one run of a build says little: runs differ by a
// fifth). Three synthetic engines (bench/fake-engine) hold 1,002 running containers, so the
// figure does not depend on the rig's state or on the engines' load.
// Usage: node bench/table-first-render.ts [rounds=4] [dist ...]
// Each dist is a built web app (default: packages/web/dist); copy a build aside to compare.
import { resolve } from 'node:path';
import { openSignedInPage, startBerth } from './berth-process.ts';
import { startFakeEngine } from './fake-engine.ts';
import { f1 } from './rig.ts';

const ROUNDS = Number(process.argv[2] ?? 4);
const DISTS = process.argv.slice(3);
if (DISTS.length === 0) DISTS.push(resolve(import.meta.dirname, '../packages/web/dist'));
const ENGINES = 3;
const PER_ENGINE = 334;
const TOTAL = ENGINES * PER_ENGINE;
const PORT = 18_795;
const ENGINE_PORT = 19_400;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

for (let i = 0; i < ENGINES; i++) await startFakeEngine(ENGINE_PORT + i, PER_ENGINE, `f${i}x`);

/** Milliseconds from navigation start to the table's first rows with every container counted. */
async function measure(dist: string): Promise<number> {
  const berth = await startBerth(PORT, { BERTH_WEB_DIR: dist });
  try {
    for (let i = 0; i < ENGINES; i++)
      await berth.api('/hosts', { name: `fake-${i}`, url: `tcp://127.0.0.1:${ENGINE_PORT + i}` });
    for (let i = 0; i < 100; i++) {
      const { body } = await berth.api('/containers');
      if (Array.isArray(body) && body.length >= TOTAL) break;
      await sleep(200);
    }
    const { browser, page } = await openSignedInPage(berth);
    try {
      await page.goto(`${berth.base}/containers`, { waitUntil: 'commit' });
      await page.waitForFunction(
        `document.querySelector('[data-testid="container-count"]')?.textContent === '${TOTAL} container(s)' && document.querySelectorAll('tbody tr').length > 0`,
        undefined,
        { timeout: 60_000, polling: 'raf' },
      );
      return await page.evaluate<number>('performance.now()');
    } finally {
      await browser.close();
    }
  } finally {
    berth.stop();
    await sleep(500);
  }
}

console.log(`bench/table-first-render: ${TOTAL} containers on ${ENGINES} synthetic engines`);
const runs = new Map<string, number[]>(DISTS.map((d) => [d, []]));
for (let round = 0; round < ROUNDS; round++) {
  for (const dist of DISTS) {
    const ms = await measure(dist);
    runs.get(dist)?.push(ms);
    console.log(`  ${dist}: ${f1(ms)} ms`);
  }
}
for (const [dist, list] of runs) {
  const sorted = [...list].sort((a, b) => a - b);
  const median = sorted[Math.floor(sorted.length / 2)] ?? 0;
  console.log(
    `${dist}: table first render, median ${f1(median)} ms, min ${f1(sorted[0] ?? 0)}, max ${f1(sorted.at(-1) ?? 0)} over ${sorted.length} runs`,
  );
}
process.exit(0);
