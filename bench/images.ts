// bench/images: the images screens at size, on synthetic engines (bench/fake-engine for what
// the monitor asks, images answered here), so the figures do not depend on the rig.
// - first render of /images with 2,000 images, median of several fresh pages: from the list's
//   answer arriving to the table's first rows with every image counted (target < 500 ms), and
//   from navigation start (the app's own start included, which the dashboard bench measures);
// - prune dry run on a host with 500 dangling images among 1,000: GET
//   /api/hosts/:id/images/prune, wall time (target < 2 s).
// Usage: node bench/images.ts [rounds=5]   (needs the server and web builds)
import type { Server } from 'node:http';
import { resolve } from 'node:path';
import { launchChromium, openSignedInPage, startBerth, timeAnswer } from './berth-process.ts';
import { f1 } from './figures.ts';
import { startOverlayEngine } from './overlay-engine.ts';

const ROUNDS = Number(process.argv[2] ?? 5);
const PORT = 18_821;
const BACK_PORT = 19_520;
const FRONT_PORT = 19_530;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** `count` image summaries, the first `dangling` without a tag. */
function imagesOf(label: string, count: number, dangling: number) {
  const now = Math.floor(Date.now() / 1000);
  return Array.from({ length: count }, (_, i) => {
    const id = `sha256:${`${label}${String(i).padStart(6, '0')}`.padEnd(64, 'c').slice(0, 64)}`;
    return {
      Id: id,
      ParentId: '',
      RepoTags: i < dangling ? ['<none>:<none>'] : [`synthetic/${label}-app-${i}:1.${i % 50}`],
      RepoDigests: i < dangling ? [] : [`synthetic/${label}-app-${i}@sha256:${'d'.repeat(64)}`],
      Created: now - i * 3600,
      Size: 5_000_000 + i * 12_345,
      SharedSize: -1,
      VirtualSize: 5_000_000 + i * 12_345,
      Labels: {},
      Containers: -1,
    };
  });
}

/**
 * An engine answering the images calls itself and passing the rest to a fake engine behind
 * it: the container list gains each container's ImageID so "in use by" is filled.
 */
async function startImagesEngine(
  front: number,
  back: number,
  label: string,
  containers: number,
  images: number,
  dangling: number,
): Promise<Server[]> {
  const ids = Array.from({ length: containers }, (_, i) =>
    `${label}${String(i).padStart(4, '0')}`.padEnd(64, 'a').slice(0, 64),
  );
  const list = imagesOf(label, images, dangling);
  // Each container runs one of the tagged images.
  const imageOfContainer = new Map(ids.map((id, i) => [id, list[(dangling + i) % images]?.Id]));
  return startOverlayEngine({
    front,
    back,
    label,
    containers,
    served: { '/images/json': JSON.stringify(list) },
    containerRow: (r) => ({ ...r, ImageID: imageOfContainer.get(r.Id) ?? '' }),
  });
}

const servers = [
  ...(await startImagesEngine(FRONT_PORT, BACK_PORT, 'big', 20, 2000, 100)),
  ...(await startImagesEngine(FRONT_PORT + 1, BACK_PORT + 1, 'dgl', 20, 1000, 500)),
];
const berth = await startBerth(PORT, {
  BERTH_WEB_DIR: resolve(import.meta.dirname, '../packages/web/dist'),
});
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0;
try {
  const big = (
    await berth.api('/hosts', { name: 'images-2000', url: `tcp://127.0.0.1:${FRONT_PORT}` })
  ).body as { id: string };
  for (let i = 0; i < 150; i++) {
    const { body } = await berth.api(`/images?host=${big.id}`);
    const n = (body as { images?: unknown[] }).images?.length ?? 0;
    if (n >= 2000) break;
    await sleep(200);
  }
  console.log('bench/images: 2,000 images on one synthetic engine; 500 dangling on another');

  // The dangling host is added after: the fleet list shows the 2,000 alone.
  const list: number[] = [];
  for (let round = 0; round < ROUNDS; round++) list.push((await timeAnswer(berth, `/images`)).ms);
  console.log(
    `  GET /api/images, 2,000 images: median ${f1(median(list))} ms (part of the render below)`,
  );
  const browser = await launchChromium();
  const renders: number[] = [];
  const answered: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    const { context, page } = await openSignedInPage(berth, 1440, 900, browser);
    await page.goto(`${berth.base}/images`, { waitUntil: 'commit' });
    await page.waitForFunction(
      `document.querySelector('[data-testid="image-count"]')?.textContent === '2000 image(s)' && document.querySelectorAll('tbody tr').length > 0`,
      undefined,
      { timeout: 60_000, polling: 'raf' },
    );
    renders.push(await page.evaluate<number>('performance.now()'));
    answered.push(
      await page.evaluate<number>(
        `performance.getEntriesByType('resource').find((e) => e.name.includes('/api/images'))?.responseEnd ?? NaN`,
      ),
    );
    await context.close();
  }
  await browser.close();
  const own = renders.map((r, i) => r - (answered[i] ?? NaN));
  console.log(
    `  /images from navigation to rows (app start included): median ${f1(median(renders))} ms (runs ${renders.map(f1).join(', ')})`,
  );
  console.log(
    `  list render, the answer's arrival to rows on screen: median ${f1(median(own))} ms (runs ${own.map(f1).join(', ')}; target < 500 ms) ${median(own) < 500 ? 'MET' : 'MISSED'}`,
  );
  const again = (
    await berth.api('/hosts', { name: 'dangling-500', url: `tcp://127.0.0.1:${FRONT_PORT + 1}` })
  ).body as { id: string };
  for (let i = 0; i < 150; i++) {
    const { body } = await berth.api(`/images?host=${again.id}`);
    if (((body as { images?: unknown[] }).images?.length ?? 0) >= 1000) break;
    await sleep(200);
  }
  const dry: number[] = [];
  let count = 0;
  for (let round = 0; round < ROUNDS * 2; round++) {
    const t = await timeAnswer(berth, `/hosts/${again.id}/images/prune`);
    if (t.status !== 200) throw new Error(`prune dry run answered ${t.status}`);
    dry.push(t.ms);
  }
  count = ((await berth.api(`/hosts/${again.id}/images/prune`)).body as { count: number }).count;
  const worst = Math.max(...dry);
  console.log(
    `  prune dry run, ${count} dangling of 1,000 images: median ${f1(median(dry))} ms, max ${f1(worst)} ms (target < 2000 ms) ${worst < 2000 ? 'MET' : 'MISSED'}`,
  );
} finally {
  berth.stop();
  for (const s of servers) s.close();
}
process.exit(0);
