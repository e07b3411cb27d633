// bench/volumes: the volumes screen and prune at size, on synthetic engines (bench/fake-engine
// for what the monitor asks; volumes, their df sizes and the containers' mounts answered here),
// so the figures do not depend on the rig.
// - first render of /volumes with 2,000 volumes (sizes asked): from the sidebar's link to the
//   table's first rows with every volume counted (target < 500 ms; opened cold, navigation
//   start to rows with the app's start, printed beside it), median of several fresh pages;
// - prune dry run on a host with 500 unused volumes among 1,000: GET
//   /api/hosts/:id/prune/volumes, wall time (target < 2 s).
// Usage: node bench/volumes.ts [rounds=5]   (needs the server and web builds)
import type { Server } from 'node:http';
import { resolve } from 'node:path';
import { launchChromium, openSignedInPage, startBerth, timeAnswer } from './berth-process.ts';
import { f1 } from './figures.ts';
import { startOverlayEngine } from './overlay-engine.ts';

const ROUNDS = Number(process.argv[2] ?? 5);
const PORT = 18_831;
const BACK_PORT = 19_540;
const FRONT_PORT = 19_550;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * An engine answering the volumes calls itself and passing the rest to a fake engine behind
 * it: the container list gains mounts, container i mounting volumes i and i + containers, so
 * `used` volumes have a user and the rest are unused.
 */
async function startVolumesEngine(
  front: number,
  back: number,
  label: string,
  containers: number,
  volumes: number,
  used: number,
): Promise<Server[]> {
  const names = Array.from(
    { length: volumes },
    (_, i) => `${label}-vol-${String(i).padStart(5, '0')}`,
  );
  const created = new Date(Date.now() - 86_400_000).toISOString();
  const volumesJson = JSON.stringify({
    Volumes: names.map((Name, i) => ({
      Name,
      Driver: 'local',
      Mountpoint: `/var/lib/docker/volumes/${Name}/_data`,
      CreatedAt: created,
      Labels: i % 3 === 0 ? { 'com.docker.compose.project': `${label}-p${i % 40}` } : null,
      Scope: 'local',
      Options: null,
    })),
    Warnings: null,
  });
  const dfJson = JSON.stringify({
    Volumes: names.map((Name, i) => ({ Name, UsageData: { Size: 4096 * (i + 1), RefCount: 0 } })),
  });
  const mountsOf = (i: number) =>
    [i, i + containers]
      .filter((v) => v < used)
      .map((v) => ({ Type: 'volume', Name: names[v], Destination: `/d${v}` }));
  return startOverlayEngine({
    front,
    back,
    label,
    containers,
    served: { '/volumes': volumesJson, '/system/df': dfJson },
    containerRow: (r, i) => ({ ...r, Mounts: mountsOf(i) }),
  });
}

const servers = [
  ...(await startVolumesEngine(FRONT_PORT, BACK_PORT, 'big', 20, 2000, 40)),
  ...(await startVolumesEngine(FRONT_PORT + 1, BACK_PORT + 1, 'half', 250, 1000, 500)),
];
const berth = await startBerth(PORT, {
  BERTH_WEB_DIR: resolve(import.meta.dirname, '../packages/web/dist'),
});
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0;
const countOn = async (hostId: string) =>
  ((await berth.api(`/volumes?host=${hostId}`)).body as { volumes?: unknown[] }).volumes?.length ??
  0;
try {
  const big = (
    await berth.api('/hosts', { name: 'volumes-2000', url: `tcp://127.0.0.1:${FRONT_PORT}` })
  ).body as { id: string };
  for (let i = 0; i < 150 && (await countOn(big.id)) < 2000; i++) await sleep(200);
  console.log(
    'bench/volumes: 2,000 volumes on one synthetic engine; 500 unused of 1,000 on another',
  );
  const lists: number[] = [];
  for (let round = 0; round < ROUNDS * 2; round++)
    lists.push((await timeAnswer(berth, `/volumes?sizes=true`)).ms);
  console.log(
    `  GET /api/volumes?sizes=true, 2,000 volumes: median ${f1(median(lists))} ms, max ${f1(Math.max(...lists))} ms`,
  );

  // The second host is added after: the fleet list shows the 2,000 alone.
  const browser = await launchChromium();
  const renders: number[] = [];
  const inApp: number[] = [];
  const rowsShown = `document.querySelector('[data-testid="volume-count"]')?.textContent === '2000 volume(s)' && document.querySelectorAll('tbody tr').length > 0`;
  for (let round = 0; round < ROUNDS; round++) {
    const { context, page } = await openSignedInPage(berth, 1440, 900, browser);
    // Opened on /volumes: the app's start included (its list asked at boot with the session).
    await page.goto(`${berth.base}/volumes`, { waitUntil: 'commit' });
    await page.waitForFunction(rowsShown, undefined, { timeout: 20_000, polling: 'raf' });
    renders.push(await page.evaluate<number>('performance.now()'));
    // Reached from another screen: the sidebar's link to rows drawn (the screen's code, the
    // list's request and its render).
    await page.goto(`${berth.base}/hosts`);
    await page
      .getByTestId('hosts-page')
      .or(page.getByRole('heading', { name: 'Hosts' }))
      .first()
      .waitFor();
    const start = await page.evaluate<number>('performance.now()');
    await page.getByRole('link', { name: 'Volumes', exact: true }).click();
    await page.waitForFunction(rowsShown, undefined, { timeout: 20_000, polling: 'raf' });
    inApp.push((await page.evaluate<number>('performance.now()')) - start);
    await context.close();
  }
  await browser.close();
  console.log(
    `  /volumes opened, navigation start to rows (app start included): median ${f1(median(renders))} ms (runs ${renders.map(f1).join(', ')})`,
  );
  console.log(
    `  /volumes from the sidebar, click to 2,000 volumes' rows: median ${f1(median(inApp))} ms (runs ${inApp.map(f1).join(', ')}; target < 500 ms) ${median(inApp) < 500 ? 'MET' : 'MISSED'}`,
  );

  const half = (
    await berth.api('/hosts', { name: 'unused-500', url: `tcp://127.0.0.1:${FRONT_PORT + 1}` })
  ).body as { id: string };
  for (let i = 0; i < 150 && (await countOn(half.id)) < 1000; i++) await sleep(200);
  const dry: number[] = [];
  for (let round = 0; round < ROUNDS * 2; round++) {
    const t = await timeAnswer(berth, `/hosts/${half.id}/prune/volumes`);
    if (t.status !== 200) throw new Error(`prune dry run answered ${t.status}`);
    dry.push(t.ms);
  }
  const preview = (await berth.api(`/hosts/${half.id}/prune/volumes`)).body as {
    names: string[];
    space_bytes: number | null;
  };
  const worst = Math.max(...dry);
  console.log(
    `  prune dry run, ${preview.names.length} unused of 1,000 volumes (${preview.space_bytes ?? '?'} bytes): median ${f1(median(dry))} ms, max ${f1(worst)} ms (target < 2000 ms) ${worst < 2000 ? 'MET' : 'MISSED'}`,
  );
} finally {
  berth.stop();
  for (const s of servers) s.close();
}
process.exit(0);
