import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Host, NotificationChannel } from '@berth/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addChannelAndRule, backedUpState } from '../test/backup-state.js';
import { BERTH_CLI, ensureCliBuilt, runBerth, startBerth } from '../test/berth-cli.js';
import { httpReceiver, type HttpReceiver } from '../test/notification-receivers.js';
import { endpointOf, rigEngine } from '../test/rig.js';
import {
  ensureServerBuilt,
  httpApi,
  signInFirstTime,
  startServer,
  stopServer,
  type ServerProcess,
} from '../test/server-process.js';
import { CHANGED_PASSWORD, TEST_ADMIN } from '../test/test-app.js';
import { waitFor } from '../test/wait.js';
import { USAGE } from './cli-args.js';

/**
 * The built `berth` command against real servers: a backup of a serving instance, a restore
 * refused while it runs, a restore into a fresh data directory that a new server starts from
 * with the same hosts (a mutual-TLS engine: its key opens), rules and channels (a webhook
 * whose secret URL and header still open), and a password reset on a running server.
 */
const tag = randomBytes(3).toString('hex');
const work = mkdtempSync(join(tmpdir(), 'berth-cli-process-'));
const original = join(work, 'original');
const fresh = join(work, 'fresh');
const passphraseFile = join(work, 'passphrase');
const plainBackup = join(work, 'plain.tar');
const encryptedBackup = join(work, 'encrypted.tar');
const SECRET_HEADER = `Bearer ${tag}-secret`;

let server: ServerProcess;
let rx: HttpReceiver;
let call: ReturnType<typeof httpApi>;
let before: { hosts: unknown; rules: unknown; channels: unknown };
let channel: NotificationChannel;

async function login(base: string, password: string) {
  const res = await fetch(`${base}/api/v2/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username: TEST_ADMIN.username, password }),
  });
  const cookie = res.headers.getSetCookie().find((c) => c.startsWith('berth_session='));
  const body = (await res.json()) as { user?: { is_first_login: boolean } };
  return { status: res.status, cookie: cookie?.split(';')[0] ?? '', user: body.user };
}

beforeAll(async () => {
  ensureServerBuilt();
  ensureCliBuilt();
  writeFileSync(passphraseFile, `${tag} long passphrase\n`);
  rx = await httpReceiver();
  server = await startServer(original);
  call = httpApi(server.base, await signInFirstTime(server.base));
  const tls = rigEngine('tls');
  const pem = endpointOf(tls).tls;
  const host = await call<Host>('POST', '/hosts', {
    name: `cli-${tag}`,
    url: tls.url,
    tags: ['cli'],
    tls_ca: pem?.ca ?? null,
    tls_cert: pem?.cert ?? null,
    tls_key: pem?.key ?? null,
  });
  expect(host.status).toBe(200);
  channel = await addChannelAndRule(call, tag, `${rx.url}/hook`, SECRET_HEADER);
  before = await backedUpState(call);
}, 60_000);

afterAll(async () => {
  await stopServer(server);
  await rx.close();
  rmSync(work, { recursive: true, force: true });
});

describe('berth backup and restore between real servers', { timeout: 120_000 }, () => {
  it('backs up a serving instance: requests meanwhile all answer', async () => {
    const backupsDone = new AbortController();
    const statuses: number[] = [];
    const load = (async () => {
      while (!backupsDone.signal.aborted) statuses.push((await call('GET', '/hosts')).status);
    })();
    const plain = await runBerth(original, ['backup', plainBackup]);
    const encrypted = await runBerth(original, [
      'backup',
      encryptedBackup,
      '--passphrase-file',
      passphraseFile,
    ]);
    backupsDone.abort();
    await load;
    expect(plain).toMatchObject({ code: 0, stdout: expect.stringMatching(/^Backed up /) });
    expect(plain.stderr).toMatch(/holds secrets: the encryption key/);
    expect(encrypted).toMatchObject({ code: 0, stderr: '' });
    expect(statSync(plainBackup).mode & 0o777).toBe(0o600);
    expect(statuses.length).toBeGreaterThan(0);
    expect(statuses.every((s) => s === 200)).toBe(true);
  });

  it('refuses to restore while the server runs, in one line, and changes nothing', async () => {
    const res = await runBerth(original, ['restore', plainBackup]);
    expect(res).toEqual({
      code: 1,
      stdout: '',
      stderr: `Cannot restore while Berth is running on ${original}: stop it first\n`,
    });
    expect((await call('GET', '/hosts')).status).toBe(200);
  });

  it('restores into a fresh data directory; a server there has the same state and secrets', async () => {
    const wrong = join(work, 'wrong');
    writeFileSync(wrong, 'not the passphrase\n');
    expect(await runBerth(fresh, ['restore', encryptedBackup, '--passphrase-file', wrong])).toEqual(
      {
        code: 1,
        stdout: '',
        stderr: `Cannot restore ${encryptedBackup}: wrong passphrase\n`,
      },
    );
    const res = await runBerth(fresh, [
      'restore',
      encryptedBackup,
      '--passphrase-file',
      passphraseFile,
    ]);
    expect(res.stderr).toBe('');
    expect(res.code).toBe(0);
    expect(res.stdout).toContain('nothing was replaced');
    await stopServer(server);

    const restored = await startBerth(fresh);
    try {
      const cookie = (await login(restored.base, CHANGED_PASSWORD)).cookie;
      const api = httpApi(restored.base, cookie);
      expect(await backedUpState(api)).toEqual(before);
      // The TLS key of the host and the webhook's URL and header are sealed with the key.
      await waitFor(
        'the mutual-TLS host online',
        async () => (await api<Host[]>('GET', '/hosts')).body[0]?.status === 'online',
        30_000,
      );
      const sent = await api<{ success: boolean }>(
        'POST',
        `/notifications/channels/${channel.id}/test`,
      );
      expect(sent.body).toEqual({ success: true, error: null });
      expect(rx.requests.at(-1)?.headers.authorization).toBe(SECRET_HEADER);
    } finally {
      await restored.stop();
    }
  });
});

describe('berth reset-password on a running server', { timeout: 60_000 }, () => {
  it('prints a password that signs in once with the change required; old sessions end', async () => {
    const running = await startBerth(fresh);
    try {
      const old = await login(running.base, CHANGED_PASSWORD);
      const res = await runBerth(fresh, ['reset-password', TEST_ADMIN.username]);
      expect(res.code).toBe(0);
      const password = /^New password for "admin": (\S+)$/m.exec(res.stdout)?.[1] ?? '';
      expect(password).toHaveLength(16);
      expect((await httpApi(running.base, old.cookie)('GET', '/v2/auth/me')).status).toBe(401);
      const signedIn = await login(running.base, password);
      expect(signedIn.status).toBe(200);
      expect(signedIn.user?.is_first_login).toBe(true);
      expect((await login(running.base, CHANGED_PASSWORD)).status).toBe(401);

      expect(await runBerth(fresh, ['reset-password', 'nobody'])).toEqual({
        code: 1,
        stdout: '',
        stderr: 'No user named "nobody" (users: "admin")\n',
      });
    } finally {
      await running.stop();
    }
  });
});

describe('berth usage', () => {
  it('help prints the usage; an unknown command prints it too and exits 2', async () => {
    expect(await runBerth(fresh, ['help'])).toEqual({ code: 0, stdout: `${USAGE}\n`, stderr: '' });
    expect(await runBerth(fresh, ['frobnicate'])).toEqual({
      code: 2,
      stdout: '',
      stderr: `Unknown command: frobnicate\n\n${USAGE}\n`,
    });
    expect((await runBerth(fresh, ['backup'])).stderr).toMatch(/^backup needs a FILE\n/);
    // A file system refusal is one line naming the call and the path, not a stack.
    const refused = await runBerth(fresh, ['backup', '/proc/backup.tar']);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/^berth backup failed: ENOENT: .* mkdtemp '\/proc\/[^\n]*'\n$/);
    expect(statSync(BERTH_CLI).mode & 0o111).not.toBe(0);
  });
});
