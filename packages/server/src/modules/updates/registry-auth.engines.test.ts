import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ExecuteUpdateResponse, Host, UpdateStatus } from '@berth/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiClient } from '../../test/api.js';
import { rigEngine } from '../../test/rig.js';
import { listedContainer, pushTagged } from '../../test/rig-images.js';
import { buildTestApp, signedInCookie, type TestApp } from '../../test/test-app.js';
import { waitFor } from '../../test/wait.js';

// Debian's docker-registry behind basic auth on loopback (shared/recipes/registry-auth.md),
// started by this test: a check without credentials says so, with stored credentials it finds
// the newer tag, and the update pulls through the engine with them (X-Registry-Auth).
const engine = rigEngine('plain');
const dir = mkdtempSync(join(tmpdir(), 'berth-reg-auth-'));
const port = 25_100 + Math.floor(Math.random() * 800);
const registry = `127.0.0.1:${port}`;
const repo = `${registry}/priv/app-${randomBytes(3).toString('hex')}`;
const USER = 'berth';
const PASS = `pw-${randomBytes(6).toString('hex')}`;
const name = `berth-upd-auth-${randomBytes(3).toString('hex')}`;
let child: ChildProcess;
let t: TestApp;
let api: ReturnType<typeof apiClient>;
let host: Host;

// The docker CLI with its own config directory, so the login never touches the user's.
const cli = (...args: string[]) =>
  execFileSync('docker', ['-H', engine.socket, ...args], {
    encoding: 'utf8',
    env: { ...process.env, DOCKER_CONFIG: join(dir, 'cli') },
  }).trim();

function bcrypt(password: string): string {
  return execFileSync(
    'python3',
    [
      '-c',
      'import crypt,sys; print(crypt.crypt(sys.argv[1], crypt.mksalt(crypt.METHOD_BLOWFISH)))',
      password,
    ],
    { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] },
  ).trim();
}

beforeAll(async () => {
  writeFileSync(join(dir, 'htpasswd'), `${USER}:${bcrypt(PASS)}\n`);
  writeFileSync(
    join(dir, 'config.yml'),
    [
      'version: 0.1',
      `storage: { filesystem: { rootdirectory: ${join(dir, 'data')} } }`,
      `http: { addr: ${registry} }`,
      `auth: { htpasswd: { realm: berth-test, path: ${join(dir, 'htpasswd')} } }`,
    ].join('\n'),
  );
  child = spawn('docker-registry', ['serve', join(dir, 'config.yml')], { stdio: 'ignore' });
  await waitFor(
    'registry up',
    async () => {
      try {
        return (await fetch(`http://${registry}/v2/`)).status === 401 ? true : undefined;
      } catch {
        return undefined;
      }
    },
    20_000,
    200,
  );
  cli('login', '-u', USER, '-p', PASS, registry);
  for (const v of ['1.0.0', '1.0.1']) await pushTagged(cli, repo, v);
  // The engine must pull 1.0.1 itself, through Berth, with Berth's stored credentials.
  cli('rmi', `${repo}:1.0.1`);
  cli('run', '-d', '--name', name, `${repo}:1.0.0`, 'sh', '-c', 'while :; do sleep 1; done');
  t = await buildTestApp();
  api = apiClient(t.app, await signedInCookie(t.app));
  host = (await api.post<Host>('/hosts', { name: 'rig-plain', url: engine.url, tags: [] })).body;
}, 120_000);

afterAll(async () => {
  for (const args of [
    ['rm', '-f', name],
    ['rmi', '-f', `${repo}:1.0.0`, `${repo}:1.0.1`],
    ['logout', registry],
  ]) {
    try {
      cli(...args);
    } catch {
      // gone
    }
  }
  child.kill('SIGTERM');
  await t.close();
  rmSync(dir, { recursive: true, force: true });
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
    child.kill('SIGTERM');
    await waitFor('registry down', async () => {
      try {
        await fetch(`http://${registry}/v2/`);
        return undefined;
      } catch {
        return true;
      }
    });
    const before = cli('inspect', '-f', '{{.Id}} {{.State.Running}}', name);
    const failed = await api.post<ExecuteUpdateResponse>(`${base}/execute-update`);
    expect(failed.body).toMatchObject({
      status: 'failed',
      message: 'Failed to pull the new image',
    });
    expect(failed.body.detail).toContain('The container was not touched');
    expect(cli('inspect', '-f', '{{.Id}} {{.State.Running}}', name)).toBe(before);
    expect((await api.post<{ detail: string }>(`${base}/check-update`)).body.detail).toContain(
      'unreachable',
    );
    const kept = (await api.get<UpdateStatus>(`${base}/update-status`)).body;
    expect(kept).toMatchObject({ update_available: true, failed_digest: null });
    expect(kept.last_error).toContain('unreachable');

    child = spawn('docker-registry', ['serve', join(dir, 'config.yml')], { stdio: 'ignore' });
    await waitFor('registry back', async () => {
      try {
        return (await fetch(`http://${registry}/v2/`)).status === 401 ? true : undefined;
      } catch {
        return undefined;
      }
    });
    const res = await api.post<ExecuteUpdateResponse>(`${base}/execute-update`);
    expect(res.body.status).toBe('success');
    expect(cli('inspect', '-f', '{{.Config.Image}}', name)).toBe(`${repo}:1.0.1`);
  });
});
