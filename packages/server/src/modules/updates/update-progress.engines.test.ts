import { randomBytes } from 'node:crypto';
import type { ExecuteUpdateResponse, Host, LiveMessage, UpdateStatus } from '@berth/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiClient } from '../../test/api.js';
import { dockerCli, readRig, rigEngine } from '../../test/rig.js';
import { listedContainer, pushTagged } from '../../test/rig-images.js';
import { buildTestApp, signedInCookie, type TestApp } from '../../test/test-app.js';

// A container on a two-part tag (`:1.0`) on the rig's plain engine, the rig registry offering
// three-part ones: each tracking mode finds its tag, the missing part reading as 0. Then real
// updates' live progress: the pull's last layer message says how the pull ended, before the
// later stages, whether the engine already held the image or fetched it from the registry.
const engine = rigEngine('plain');
const repo = `${readRig().registry}/berth-test/short-${randomBytes(3).toString('hex')}`;
const name = `berth-progress-${randomBytes(3).toString('hex')}`;
const TAGS = ['1.0', '1.0.1', '1.1.0', '1.0.2'];
const cli = (...args: string[]) => dockerCli(engine, args);
const IDLE = "trap 'exit 0' TERM; while :; do sleep 1; done";
const live: LiveMessage[] = [];
let t: TestApp;
let api: ReturnType<typeof apiClient>;
let host: Host;

beforeAll(async () => {
  for (const tag of ['1.0', '1.0.1', '1.1.0']) await pushTagged(cli, repo, tag);
  cli('run', '-d', '--name', name, `${repo}:1.0`, 'sh', '-c', IDLE);
  t = await buildTestApp();
  api = apiClient(t.app, await signedInCookie(t.app));
  host = (await api.post<Host>('/hosts', { name: 'rig-plain', url: engine.url, tags: [] })).body;
  t.app.services.updates.settleMs = 500;
  const publish = t.app.services.hub.publish.bind(t.app.services.hub);
  t.app.services.hub.publish = (m) => {
    live.push(m);
    publish(m);
  };
}, 120_000);

afterAll(async () => {
  try {
    cli('rm', '-f', name);
    cli('rmi', '-f', ...TAGS.map((tag) => `${repo}:${tag}`));
  } catch {
    // gone
  }
  await t.close();
}, 60_000);

/** Sets the container's tracking mode and checks it; answers the status. */
async function check(mode: UpdateStatus['floating_tag_mode']): Promise<UpdateStatus> {
  const c = await listedContainer(api, host.id, name);
  const base = `/hosts/${c.host_id}/containers/${c.id}`;
  expect((await api.put(`${base}/auto-update-config`, { floating_tag_mode: mode })).status).toBe(
    200,
  );
  const res = await api.post<UpdateStatus>(`${base}/check-update`);
  expect(res.status).toBe(200);
  return res.body;
}

interface Seen {
  stage: string;
  summary: string | null;
}

/** Updates the container (patch mode) and answers the live progress it caused, in order. */
async function update(): Promise<Seen[]> {
  expect(await check('patch')).toMatchObject({ update_available: true });
  const c = await listedContainer(api, host.id, name);
  const base = `/hosts/${c.host_id}/containers/${c.id}`;
  live.length = 0;
  const res = await api.post<ExecuteUpdateResponse>(`${base}/execute-update`);
  expect(res.body.status).toBe('success');
  return live.flatMap((m): Seen[] =>
    m.type === 'container_update_progress'
      ? [{ stage: m.data.stage, summary: null }]
      : m.type === 'container_update_layer_progress'
        ? [{ stage: 'layers', summary: m.data.summary }]
        : [],
  );
}

/** The layer summaries, and the stage names after the pull's last layer message. */
function split(seen: Seen[]) {
  const lastLayer = seen.findLastIndex((s) => s.stage === 'layers');
  return {
    summaries: seen.flatMap((s) => (s.summary === null ? [] : [s.summary])),
    after: seen.slice(lastLayer + 1).map((s) => s.stage),
  };
}

describe('update checks on a two-part tag', { timeout: 120_000 }, () => {
  it('1.0 is offered 1.0.1 in patch mode and 1.1.0 in minor and latest', async () => {
    expect(await check('exact')).toMatchObject({ update_available: false });
    expect(await check('patch')).toMatchObject({
      update_available: true,
      current_image: `${repo}:1.0`,
      latest_image: `${repo}:1.0.1`,
    });
    expect(await check('minor')).toMatchObject({
      update_available: true,
      latest_image: `${repo}:1.1.0`,
    });
    expect(await check('latest')).toMatchObject({
      update_available: true,
      latest_image: `${repo}:1.1.0`,
    });
  });
});

describe('update progress on a real engine', { timeout: 120_000 }, () => {
  it('an image the engine holds: the pull ends "Pull complete", then the stages follow', async () => {
    const { summaries, after } = split(await update());
    expect(summaries.at(-1)).toBe('Pull complete (image already present)');
    expect(after).toEqual(expect.arrayContaining(['configuring', 'creating', 'completed']));
  });

  it('an image fetched from the registry: its layers counted, then "Pull complete"', async () => {
    await pushTagged(cli, repo, '1.0.2');
    cli('rmi', `${repo}:1.0.2`); // only in the registry now
    const { summaries, after } = split(await update());
    expect(summaries.at(-1)).toMatch(/^Pull complete \(\d+ layers?(, \d+ already present)?\)$/);
    expect(after).toEqual(expect.arrayContaining(['configuring', 'creating', 'completed']));
    expect(cli('inspect', '-f', '{{.Config.Image}}', name)).toBe(`${repo}:1.0.2`);
  });
});
