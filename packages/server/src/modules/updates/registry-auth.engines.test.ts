import { randomBytes } from 'node:crypto';
import type { ExecuteUpdateResponse, Host, UpdateStatus } from '@berth/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiClient } from '../../test/api.js';
import { startAuthRegistry } from '../../test/auth-registry.js';
import { rigEngine } from '../../test/rig.js';
import { listedContainer, pushTagged } from '../../test/rig-images.js';
import { buildTestApp, signedInCookie, type TestApp } from '../../test/test-app.js';

// Debian's docker-registry behind basic auth on loopback (test/auth-registry.ts): a check
// without credentials says so, with stored credentials it finds the newer tag, and the update
// pulls through the engine with them (X-Registry-Auth).
const engine = rigEngine('plain');
const name = `berth-upd-auth-${randomBytes(3).toString('hex')}`;
let reg: Awaited<ReturnType<typeof startAuthRegistry>>;
let registry: string;
let repo: string;
let USER: string;
let PASS: string;
const cli = (...args: string[]) => reg.cli(...args);
let t: TestApp;
let api: ReturnType<typeof apiClient>;
let host: Host;

beforeAll(async () => {
  reg = await startAuthRegistry(engine);
  ({ registry, user: USER, password: PASS } = reg);
  repo = `${registry}/priv/app-${randomBytes(3).toString('hex')}`;
  await cli('login', '-u', USER, '-p', PASS, registry);
  for (const v of ['1.0.0', '1.0.1']) await pushTagged(cli, repo, v);
  // The engine must pull 1.0.1 itself, through Berth, with Berth's stored credentials.
  await cli('rmi', `${repo}:1.0.1`);
  await cli('run', '-d', '--name', name, `${repo}:1.0.0`, 'sh', '-c', 'while :; do sleep 1; done');
  t = await buildTestApp();
  api = apiClient(t.app, await signedInCookie(t.app));
  host = (await api.post<Host>('/hosts', { name: 'rig-plain', url: engine.url, tags: [] })).body;
}, 120_000);

afterAll(async () => {
  for (const args of [
    ['rm', '-f', name],
    ['rmi', '-f', `${repo}:1.0.0`, `${repo}:1.0.1`],
  ])
    await cli(...args).catch(() => undefined); // gone
  await reg.close();
  await t.close();
}, 60_000);

describe('a registry behind basic auth', { timeout: 120_000 }, () => {
  it('needs the stored credentials to check and to pull, and never shows the password', async () => {
    const c = await listedContainer(api, host.id, name);
    const base = `/hosts/${c.host_id}/containers/${c.id}`;
    await api.put(`${base}/auto-update-config`, { floating_tag_mode: 'patch' });
    const refused = await api.post<{ detail: string }>(`${base}/check-update`);
    expect(refused.status).toBe(409);
    expect(refused.body.detail).toContain(`Registry ${registry} needs credentials`);

    const wrong = await api.post<{ id: number }>('/registry-credentials', {
      registry_url: `http://${registry}`,
      username: USER,
      password: 'wrong',
    });
    expect((await api.post<{ detail: string }>(`${base}/check-update`)).body.detail).toMatch(
      /check the credentials|needs credentials|401/,
    );
    const saved = await api.put<Record<string, unknown>>(`/registry-credentials/${wrong.body.id}`, {
      password: PASS,
    });
    expect(saved.body).toMatchObject({ registry_url: registry, username: USER });
    expect(JSON.stringify(saved.body)).not.toContain(PASS);
    expect(JSON.stringify((await api.get('/registry-credentials')).body)).not.toContain(PASS);

    const status = (await api.post<UpdateStatus>(`${base}/check-update`)).body;
    expect(status).toMatchObject({ update_available: true, latest_image: `${repo}:1.0.1` });

    // The registry goes away: the pull fails, the container is untouched; a check keeps
    // the last result and says why it could not check.
    await reg.stop();
    const before = await cli('inspect', '-f', '{{.Id}} {{.State.Running}}', name);
    const failed = await api.post<ExecuteUpdateResponse>(`${base}/execute-update`);
    expect(failed.body).toMatchObject({
      status: 'failed',
      message: 'Failed to pull the new image',
    });
    expect(failed.body.detail).toContain('The container was not touched');
    expect(await cli('inspect', '-f', '{{.Id}} {{.State.Running}}', name)).toBe(before);
    expect((await api.post<{ detail: string }>(`${base}/check-update`)).body.detail).toContain(
      'unreachable',
    );
    const kept = (await api.get<UpdateStatus>(`${base}/update-status`)).body;
    expect(kept).toMatchObject({ update_available: true, failed_digest: null });
    expect(kept.last_error).toContain('unreachable');

    await reg.start();
    const res = await api.post<ExecuteUpdateResponse>(`${base}/execute-update`);
    expect(res.body.status).toBe('success');
    expect(await cli('inspect', '-f', '{{.Config.Image}}', name)).toBe(`${repo}:1.0.1`);
  });
});
