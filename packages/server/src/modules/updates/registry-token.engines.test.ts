import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { createPrivateKey, randomBytes, sign, X509Certificate, type KeyObject } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { createServer as createNetServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { ExecuteUpdateResponse, Host, UpdateStatus } from '@berth/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiClient } from '../../test/api.js';
import { listenOnLoopback, selfSignedCert } from '../../test/loopback.js';
import { rigEngine } from '../../test/rig.js';
import { listedContainer, pushTagged } from '../../test/rig-images.js';
import { buildTestApp, signedInCookie, type TestApp } from '../../test/test-app.js';
import { waitFor } from '../../test/wait.js';

// Debian's docker-registry configured for token auth (`auth: token`), started by this test,
// behind a loopback token server written here: it checks basic credentials and signs JWTs
// with a key whose certificate is the registry's rootcertbundle. This is the flow of Docker
// Hub and GHCR (401 Bearer challenge → token realm → retry with the token), exercised against
// the registry's own token verification rather than a fake of it.
const engine = rigEngine('plain');
const dir = mkdtempSync(join(tmpdir(), 'berth-reg-token-'));
const SERVICE = 'berth-token-registry';
const ISSUER = 'berth-token-issuer';
const USER = 'tokenuser';
const PASS = `pw-${randomBytes(6).toString('hex')}`;
const name = `berth-upd-token-${randomBytes(3).toString('hex')}`;
let registry = '';
let repo = '';
let child: ChildProcess | null = null;
let tokenServer: Server;
let key: KeyObject;
let certDer = '';
/** What the token server was asked: account, scopes, whether it granted, and by whom. */
const tokenRequests: { user: string | null; scope: string[]; granted: boolean; by: string }[] = [];
/**
 * The token requests this test can own. Another test file's Berth shares the rig's engine and
 * may check every container on it at any moment (its scheduled check-all), without a
 * credential for this registry: an anonymous request from a Node client may be that neighbour.
 * A request with a credential, or one from the engine, is this test's.
 */
const fromEngine = (r: { by: string }) => r.by.startsWith('docker/');
const owned = () => tokenRequests.filter((r) => r.user !== null || fromEngine(r));
let t: TestApp | undefined;
let api: ReturnType<typeof apiClient>;
let host: Host;

// The docker CLI with its own config directory, so the login never touches the user's.
// Asynchronous: the token server answers from this very process while the engine waits.
const run = promisify(execFile);
const cli = async (...args: string[]) =>
  (
    await run('docker', ['-H', engine.socket, ...args], {
      encoding: 'utf8',
      env: { ...process.env, DOCKER_CONFIG: join(dir, 'cli') },
    })
  ).stdout.trim();

const b64url = (data: Buffer | string) => Buffer.from(data).toString('base64url');

/** A JWT the registry accepts: RS256, the signing certificate in `x5c`, the granted access. */
function jwt(subject: string, access: { type: string; name: string; actions: string[] }[]) {
  const now = Math.floor(Date.now() / 1000);
  const header = { typ: 'JWT', alg: 'RS256', x5c: [certDer] };
  const claims = {
    iss: ISSUER,
    sub: subject,
    aud: SERVICE,
    exp: now + 300,
    nbf: now - 10,
    iat: now,
    jti: randomBytes(8).toString('hex'),
    access,
  };
  const signing = `${b64url(JSON.stringify(header))}.${b64url(JSON.stringify(claims))}`;
  return `${signing}.${b64url(sign('sha256', Buffer.from(signing), key))}`;
}

/** `repository:priv/app:pull,push` → the access entry it asks for. */
function access(scope: string) {
  const first = scope.indexOf(':');
  const last = scope.lastIndexOf(':');
  return {
    type: scope.slice(0, first),
    name: scope.slice(first + 1, last),
    actions: scope.slice(last + 1).split(','),
  };
}

function startTokenServer(): Promise<number> {
  tokenServer = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    const auth = req.headers.authorization ?? '';
    const [user, pass] = auth.startsWith('Basic ')
      ? Buffer.from(auth.slice(6), 'base64').toString('utf8').split(':')
      : [null, null];
    const scope = url.searchParams.getAll('scope');
    const granted =
      url.pathname === '/token' &&
      url.searchParams.get('service') === SERVICE &&
      user === USER &&
      pass === PASS;
    tokenRequests.push({
      user: user ?? null,
      scope,
      granted,
      by: req.headers['user-agent'] ?? '',
    });
    res.setHeader('content-type', 'application/json');
    if (!granted) {
      res.writeHead(401, { 'www-authenticate': 'Basic realm="berth-token"' });
      res.end(JSON.stringify({ errors: [{ code: 'UNAUTHORIZED', message: 'bad credentials' }] }));
      return;
    }
    const token = jwt(USER, scope.map(access));
    res.end(JSON.stringify({ token, access_token: token, expires_in: 300 }));
  });
  return listenOnLoopback(tokenServer);
}

/** A loopback port nothing listens on right now. */
async function freePort(): Promise<number> {
  const probe = createNetServer();
  const port = await listenOnLoopback(probe);
  await new Promise((done) => probe.close(done));
  return port;
}

async function startRegistry() {
  child = spawn('docker-registry', ['serve', join(dir, 'config.yml')], {
    stdio: 'ignore',
  });
  await waitFor(
    'token registry up',
    async () => {
      try {
        const res = await fetch(`http://${registry}/v2/`);
        return res.status === 401 &&
          (res.headers.get('www-authenticate') ?? '').startsWith('Bearer ')
          ? true
          : undefined;
      } catch {
        return undefined;
      }
    },
    20_000,
    200,
  );
}

beforeAll(async () => {
  // The token issuer's key; its certificate is the registry's rootcertbundle.
  const issuer = selfSignedCert();
  writeFileSync(join(dir, 'token.crt'), issuer.cert);
  key = createPrivateKey(issuer.key);
  certDer = new X509Certificate(issuer.cert).raw.toString('base64');
  const tokenPort = await startTokenServer();
  registry = `127.0.0.1:${await freePort()}`;
  repo = `${registry}/priv/tok-${randomBytes(3).toString('hex')}`;
  writeFileSync(
    join(dir, 'config.yml'),
    [
      'version: 0.1',
      'log: { level: warn }',
      `storage: { filesystem: { rootdirectory: ${join(dir, 'data')} } }`,
      `http: { addr: ${registry} }`,
      'auth:',
      '  token:',
      `    realm: http://127.0.0.1:${tokenPort}/token`,
      `    service: ${SERVICE}`,
      `    issuer: ${ISSUER}`,
      `    rootcertbundle: ${join(dir, 'token.crt')}`,
    ].join('\n'),
  );
  await startRegistry();
  // The engine logs in through the token server too (it asks for pull,push to push).
  await cli('login', '-u', USER, '-p', PASS, registry);
  for (const v of ['0.9.0', '1.0.0', '1.0.1', '1.1.0', '2.0.0-rc1']) await pushTagged(cli, repo, v);
  // The engine must pull the new version itself, through Berth, with Berth's credentials.
  await cli('rmi', `${repo}:1.0.1`, `${repo}:1.1.0`);
  await cli('logout', registry);
  await cli('run', '-d', '--name', name, `${repo}:1.0.0`, 'sh', '-c', 'while :; do sleep 1; done');
  t = await buildTestApp();
  api = apiClient(t.app, await signedInCookie(t.app));
  host = (await api.post<Host>('/hosts', { name: 'rig-plain', url: engine.url, tags: [] })).body;
}, 120_000);

afterAll(async () => {
  for (const args of [
    ['rm', '-f', name],
    ['rmi', '-f', ...['0.9.0', '1.0.0', '1.0.1', '1.1.0', '2.0.0-rc1'].map((v) => `${repo}:${v}`)],
  ]) {
    try {
      await cli(...args);
    } catch {
      // gone
    }
  }
  child?.kill('SIGTERM');
  tokenServer.close();
  await t?.close();
  rmSync(dir, { recursive: true, force: true });
}, 60_000);

/** The digest the registry itself serves for a tag (asked with a token of our own). */
async function registryDigest(tag: string): Promise<string | null> {
  const path = repo.slice(registry.length + 1);
  const token = jwt(USER, [{ type: 'repository', name: path, actions: ['pull'] }]);
  const res = await fetch(`http://${registry}/v2/${path}/manifests/${tag}`, {
    method: 'HEAD',
    headers: {
      authorization: `Bearer ${token}`,
      accept: 'application/vnd.docker.distribution.manifest.v2+json',
    },
  });
  expect(res.status).toBe(200);
  // The registry verifies the JWT itself: the same token with a forged signature is refused.
  const forged = `${token.slice(0, token.lastIndexOf('.'))}.${b64url(randomBytes(256))}`;
  const refused = await fetch(`http://${registry}/v2/${path}/manifests/${tag}`, {
    method: 'HEAD',
    headers: { authorization: `Bearer ${forged}` },
  });
  expect(refused.status).toBe(401);
  return res.headers.get('docker-content-digest');
}

describe('a registry behind the bearer-token flow', { timeout: 120_000 }, () => {
  it('finds the newer tag and its digest with the stored credential; refuses clearly without', async () => {
    const c = await listedContainer(api, host.id, name);
    const base = `/hosts/${c.host_id}/containers/${c.id}`;
    await api.put(`${base}/auto-update-config`, { floating_tag_mode: 'patch' });

    // No credential: the token server refuses an anonymous token; a clear 409, not a 5xx.
    tokenRequests.length = 0;
    const anonymous = await api.post<{ detail: string }>(`${base}/check-update`);
    expect(anonymous.status).toBe(409);
    expect(anonymous.body.detail).toContain(`Token server of ${registry} refused (401)`);
    expect(tokenRequests.at(-1)).toMatchObject({ user: null, granted: false });

    // A wrong password: the same, naming the credentials as the thing to check.
    const cred = await api.post<{ id: number }>('/registry-credentials', {
      registry_url: `http://${registry}`,
      username: USER,
      password: 'wrong-password',
    });
    expect(cred.status).toBe(200);
    const wrong = await api.post<{ detail: string }>(`${base}/check-update`);
    expect(wrong.status).toBe(409);
    expect(wrong.body.detail).toContain(
      `Token server of ${registry} refused (401): check the credentials`,
    );
    expect(owned().at(-1)).toMatchObject({ user: USER, granted: false });
    const failedStatus = (await api.get<UpdateStatus>(`${base}/update-status`)).body;
    expect(failedStatus.last_error).toContain('check the credentials');

    // The right password: the token is asked for the repository's pull scope only, and the
    // registry (which verifies the JWT against its rootcertbundle) answers tags and manifests.
    await api.put(`/registry-credentials/${cred.body.id}`, { password: PASS });
    tokenRequests.length = 0;
    const patch = (await api.post<UpdateStatus>(`${base}/check-update`)).body;
    const path = repo.slice(registry.length + 1);
    // Asked anonymously first, the token server would have refused and the check failed.
    expect(owned().length).toBeGreaterThan(0);
    expect(owned().every((r) => r.granted && r.user === USER && !fromEngine(r))).toBe(true);
    expect(owned()[0]?.scope).toEqual([`repository:${path}:pull`]);
    expect(patch).toMatchObject({
      update_available: true,
      latest_image: `${repo}:1.0.1`,
      latest_digest: await registryDigest('1.0.1'),
      current_digest: await registryDigest('1.0.0'),
      last_error: null,
    });

    // minor finds 1.1.0; latest ignores the pre-release 2.0.0-rc1; the lower 0.9.0 never counts.
    await api.put(`${base}/auto-update-config`, { floating_tag_mode: 'minor' });
    const minor = (await api.post<UpdateStatus>(`${base}/check-update`)).body;
    expect(minor).toMatchObject({
      latest_image: `${repo}:1.1.0`,
      latest_digest: await registryDigest('1.1.0'),
    });
    await api.put(`${base}/auto-update-config`, { floating_tag_mode: 'latest' });
    expect((await api.post<UpdateStatus>(`${base}/check-update`)).body.latest_image).toBe(
      `${repo}:1.1.0`,
    );

    // The engine pulls 1.1.0 itself with the credential Berth hands it (X-Registry-Auth):
    // the daemon runs the same token flow against the same token server.
    tokenRequests.length = 0;
    const res = await api.post<ExecuteUpdateResponse>(`${base}/execute-update`);
    expect(res.body).toMatchObject({ status: 'success' });
    expect(await cli('inspect', '-f', '{{.Config.Image}} {{.State.Running}}', name)).toBe(
      `${repo}:1.1.0 true`,
    );
    expect(owned().some((r) => fromEngine(r) && r.granted && r.user === USER)).toBe(true);
    // Named, not counted: a refusal shows who asked and for what.
    expect(owned().filter((r) => !r.granted)).toEqual([]);
  });
});
