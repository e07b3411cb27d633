import { randomBytes } from 'node:crypto';
import type { Host, UpdateStatus } from '@berth/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiClient } from '../../test/api.js';
import { dockerCli, readRig, rigEngine } from '../../test/rig.js';
import { listedContainer, pushTagged } from '../../test/rig-images.js';
import { buildTestApp, signedInCookie, type TestApp } from '../../test/test-app.js';

// A container on a two-part tag (`:1.0`) while the rig registry offers three-part ones: each
// tracking mode finds its tag, the missing part reading as 0.
const engine = rigEngine('plain');
const repo = `${readRig().registry}/berth-test/short-${randomBytes(3).toString('hex')}`;
const name = `berth-short-${randomBytes(3).toString('hex')}`;
const TAGS = ['1.0', '1.0.1', '1.1.0'];
const cli = (...args: string[]) => dockerCli(engine, args);
let t: TestApp;
let api: ReturnType<typeof apiClient>;
let host: Host;

beforeAll(async () => {
  for (const tag of TAGS) await pushTagged(cli, repo, tag);
  cli('run', '-d', '--name', name, `${repo}:1.0`, 'sh', '-c', 'while :; do sleep 1; done');
  t = await buildTestApp();
  api = apiClient(t.app, await signedInCookie(t.app));
  host = (await api.post<Host>('/hosts', { name: 'rig-plain', url: engine.url, tags: [] })).body;
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

describe('update checks on a two-part tag', { timeout: 120_000 }, () => {
  it('1.0 is offered 1.0.1 in patch mode and 1.1.0 in minor and latest', async () => {
    const c = await listedContainer(api, host.id, name);
    const base = `/hosts/${c.host_id}/containers/${c.id}`;
    const check = async (mode: UpdateStatus['floating_tag_mode']) => {
      expect(
        (await api.put(`${base}/auto-update-config`, { floating_tag_mode: mode })).status,
      ).toBe(200);
      const res = await api.post<UpdateStatus>(`${base}/check-update`);
      expect(res.status).toBe(200);
      return res.body;
    };
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
