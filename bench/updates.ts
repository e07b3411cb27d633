// bench/updates: the image update checker and one update end to end, on the rig.
// 1) 300 containers (created, not running) across the rig's 3 engines on 10 repositories of
//    the rig registry, tracked in minor mode (tag list + manifest): POST /api/updates/check-all
//    time and the registry requests Berth made, counted by a loopback proxy in front of the
//    registry (one tag list and one manifest per repository and tag per run, not per container).
// 2) One update of a container whose new image is 50 MB: total time of execute-update, the pull
//    and the settle wait measured from the live stage messages, and what is left: Berth's share.
// Needs the rig and a build (`npm run build`). Usage: node bench/updates.ts [containers=300]
import { readFileSync } from 'node:fs';
import { createServer, request } from 'node:http';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import { join, resolve } from 'node:path';
import { randomBytes } from 'node:crypto';
import { docker, f1, inParallel, rig, startBerthWithRig, type Engine } from './rig.ts';

const ROOT = resolve(import.meta.dirname, '..');
const require = createRequire(join(ROOT, 'packages/server/package.json'));
const WebSocket = require('ws') as typeof import('ws').default;

const TOTAL = Number(process.argv[2] ?? 300);
const REPOS = 10;
const PORT = 18_760;
const LABEL = 'berth-bench-updates=1';
const registry = (
  JSON.parse(
    readFileSync(join(process.env.BERTH_RIG_DIR ?? '/tmp/berth-rig', 'engines.json'), 'utf8'),
  ) as { registry: string }
).registry;
const [regHost, regPort] = registry.split(':') as [string, string];
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

// A counting proxy in front of the rig registry (engines trust any loopback registry).
const counts = { berth: 0, total: 0 };
const proxy = createServer((req, res) => {
  counts.total++;
  if ((req.headers['user-agent'] ?? '').includes('node')) counts.berth++;
  const upstream = request(
    {
      host: regHost,
      port: Number(regPort),
      method: req.method,
      path: req.url,
      headers: req.headers,
    },
    (up) => {
      res.writeHead(up.statusCode ?? 502, up.headers);
      up.pipe(res);
    },
  );
  upstream.on('error', () => res.destroy());
  req.pipe(upstream);
});
await new Promise<void>((r) => proxy.listen(0, '127.0.0.1', r));
const proxied = `127.0.0.1:${(proxy.address() as AddressInfo).port}`;
const tag = randomBytes(3).toString('hex');
const local = rig.engines.find((e) => e.name === 'local') as Engine;
const plain = rig.engines.find((e) => e.name === 'plain') as Engine;

console.log(`bench/updates: ${TOTAL} containers, ${REPOS} repositories, registry via ${proxied}`);
const repos = Array.from({ length: REPOS }, (_, i) => `${proxied}/bench-upd-${tag}/app${i}`);
// Versions 1.0.0 and 1.1.0 of each repository, pushed from the local engine.
const src = `bench-upd-src-${tag}`;
await docker(local, ['create', '--name', src, rig.images.busybox, 'true']);
for (const repo of repos) {
  for (const v of ['1.0.0', '1.1.0']) {
    await docker(local, [
      'commit',
      '-c',
      `LABEL v=${v}`,
      '-c',
      `LABEL r=${repo}`,
      src,
      `${repo}:${v}`,
    ]);
    await docker(local, ['push', '-q', `${repo}:${v}`]);
  }
}
await docker(local, ['rm', src]);
// Each engine pulls 1.0.0 and gets its share of containers (created: cheap for the engines).
const per = Math.ceil(TOTAL / rig.engines.length);
for (const e of rig.engines) {
  for (const repo of repos) await docker(e, ['pull', '-q', `${repo}:1.0.0`]);
  await inParallel(
    Array.from(
      { length: per },
      (_, i) => () =>
        docker(e, ['create', '--label', LABEL, `${repos[i % REPOS] ?? ''}:1.0.0`, 'sleep', '1']),
    ),
    6,
  );
}

const berth = await startBerthWithRig(PORT);
try {
  type Listed = { host_id: string; id: string; image: string; name: string };
  let mine: Listed[] = [];
  for (let i = 0; i < 300; i++) {
    const all = (await berth.api('/containers')).body as Listed[];
    mine = all.filter((c) => c.image.includes(`bench-upd-${tag}/`));
    if (mine.length >= TOTAL - (TOTAL % rig.engines.length === 0 ? 0 : 3)) break;
    await sleep(500);
  }
  const ids = mine.map((c) => `${c.host_id}:${c.id}`);
  const job = (
    await berth.api('/batch', {
      scope: 'container',
      action: 'set-auto-update',
      ids,
      params: { enabled: false, floating_tag_mode: 'minor' },
    })
  ).body as { job_id: string };
  for (;;) {
    const j = (await berth.api(`/batch/${job.job_id}`)).body as { status: string };
    if (j.status === 'completed' || j.status === 'failed') break;
    await sleep(300);
  }
  counts.berth = 0;
  counts.total = 0;
  const t0 = performance.now();
  const result = (await berth.api('/updates/check-all', {})).body as {
    checked: number;
    total: number;
    updates_found: number;
    errors: string[];
  };
  const ms = performance.now() - t0;
  console.log(
    `check-all: ${result.checked}/${result.total} checked (${mine.length} bench containers), ` +
      `${result.updates_found} updates found, ${result.errors.length} errors in ${f1(ms / 1000)} s; ` +
      `registry requests by Berth: ${counts.berth} (${REPOS} repositories)`,
  );
  if (result.errors.length > 0) console.log('  first errors:', result.errors.slice(0, 3));

  // 2) One update with a 50 MB new image on the plain engine.
  const big = `${proxied}/bench-upd-${tag}/big`;
  const blob = `bench-upd-blob-${tag}`;
  for (const v of ['1.0.0', '1.0.1']) {
    await docker(local, [
      'run',
      '--name',
      blob,
      rig.images.busybox,
      'sh',
      '-c',
      'head -c 50000000 /dev/urandom > /blob',
    ]);
    await docker(local, ['commit', blob, `${big}:${v}`]);
    await docker(local, ['rm', blob]);
    await docker(local, ['push', '-q', `${big}:${v}`]);
  }
  await docker(plain, ['pull', '-q', `${big}:1.0.0`]);
  const name = `bench-upd-big-${tag}`;
  await docker(plain, [
    'run',
    '-d',
    '--label',
    LABEL,
    '--name',
    name,
    `${big}:1.0.0`,
    'sleep',
    '36000',
  ]);
  let c: Listed | undefined;
  for (let i = 0; i < 100 && c === undefined; i++) {
    c = ((await berth.api('/containers')).body as Listed[]).find((x) => x.name === name);
    if (c === undefined) await sleep(300);
  }
  if (c === undefined) throw new Error('big container not listed');
  const path = `/hosts/${c.host_id}/containers/${c.id}`;
  await berth.api(`${path}/auto-update-config`, { floating_tag_mode: 'patch' }, 'PUT');
  await berth.api(`${path}/check-update`, {});
  const stages: { stage: string; at: number }[] = [];
  const socket = new WebSocket(`ws://127.0.0.1:${PORT}/ws/?protocol=2`, {
    headers: { cookie: berth.cookie },
  });
  socket.on('message', (raw) => {
    const m = JSON.parse((raw as Buffer).toString('utf8')) as {
      type: string;
      data: { stage?: string };
    };
    if (m.type === 'container_update_progress' && m.data.stage !== undefined)
      stages.push({ stage: m.data.stage, at: performance.now() });
  });
  await new Promise((r) => socket.once('open', r));
  const u0 = performance.now();
  const res = (await berth.api(`${path}/execute-update`, {})).body as {
    status: string;
    message: string;
  };
  const total = performance.now() - u0;
  const first = (s: string, after = 0) =>
    stages.find((x) => x.stage === s && x.at >= after)?.at ?? NaN;
  const pull = first('configuring') - first('pulling');
  // 'starting' is also the first stage (0 %, 'Initializing update...'): the container's
  // start is the one after 'creating'.
  const startAndSettle = first('cleanup') - first('starting', first('creating'));
  // Stopping the old container waits for its stop timeout (sleep as PID 1 ignores SIGTERM).
  const stop = first('creating') - first('backup');
  console.log(
    '  stages:',
    stages
      .map((x, i) => `${x.stage} +${f1(((stages[i + 1]?.at ?? x.at) - x.at) / 1000)}s`)
      .join(', '),
  );
  console.log(
    `update of a 50 MB image: ${res.status} (${res.message}) in ${f1(total / 1000)} s; ` +
      `pull ${f1(pull / 1000)} s, start + settle (10 s without HEALTHCHECK) ${f1(startAndSettle / 1000)} s, ` +
      `old container stop ${f1(stop / 1000)} s, ` +
      `Berth ${f1((total - pull - startAndSettle - stop) / 1000)} s (${f1(((total - pull - startAndSettle - stop) / total) * 100)} %)`,
  );
  socket.close();
} finally {
  berth.stop();
  for (const e of rig.engines) {
    const ids = (await docker(e, ['ps', '-aq', '--filter', `label=${LABEL}`])).stdout
      .split('\n')
      .filter(Boolean);
    for (let i = 0; i < ids.length; i += 50) await docker(e, ['rm', '-f', ...ids.slice(i, i + 50)]);
    const images = (
      await docker(e, ['images', '-q', '--filter', `reference=${proxied}/bench-upd-${tag}/*`])
    ).stdout
      .split('\n')
      .filter(Boolean);
    if (images.length > 0) await docker(e, ['rmi', '-f', ...new Set(images)]).catch(() => null);
  }
  proxy.close();
}
