import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseChallenge, parseImageRef, RegistryClient, type ImageRef } from './registry.js';

// A loopback registry speaking the parts of the API the client uses, in three modes:
// bearer (a token server on the same port, Docker Hub style), basic, and broken answers.
const DIGEST = `sha256:${'a'.repeat(64)}`;
const LIST_DIGEST = `sha256:${'b'.repeat(64)}`;
const CONFIG = `sha256:${'c'.repeat(64)}`;
let server: Server;
let port = 0;
const seen: string[] = [];

beforeAll(async () => {
  server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    seen.push(`${req.method} ${url.pathname}`);
    const auth = req.headers.authorization ?? '';
    const [, mode, ...rest] = url.pathname.split('/');
    const path = `/${rest.join('/')}`;
    const json = (status: number, body: unknown, headers: Record<string, string> = {}) => {
      res.writeHead(status, { 'content-type': 'application/json', ...headers });
      res.end(JSON.stringify(body));
    };
    if (mode === 'token') {
      if (auth !== `Basic ${Buffer.from('bob:pw').toString('base64')}`) {
        json(401, {});
        return;
      }
      expect(url.searchParams.get('scope')).toBe('repository:team/app:pull');
      json(200, { token: 'tok-1', expires_in: 300 });
      return;
    }
    if (mode === 'bearer' && auth !== 'Bearer tok-1') {
      json(
        401,
        {},
        {
          'www-authenticate': `Bearer realm="http://127.0.0.1:${port}/token/",service="reg",scope="repository:team/app:pull"`,
        },
      );
      return;
    }
    if (mode === 'basic' && auth !== `Basic ${Buffer.from('bob:pw').toString('base64')}`) {
      json(401, {}, { 'www-authenticate': 'Basic realm="test"' });
      return;
    }
    if (mode === 'garbage') {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end('<html>not json');
      return;
    }
    if (mode === 'slow') return; // never answers
    if (mode === 'huge') {
      json(200, { tags: Array.from({ length: 300_000 }, (_, i) => `t${i}`) });
      return;
    }
    if (path.endsWith('/tags/list')) {
      if (url.searchParams.get('last') === null) {
        json(
          200,
          { name: 'team/app', tags: ['1.0', '1.1'] },
          {
            link: `</${mode}/v2/team/app/tags/list?n=2&last=1.1>; rel="next"`,
          },
        );
        return;
      }
      json(200, { name: 'team/app', tags: ['2.0'] });
      return;
    }
    if (path.endsWith(`/manifests/${LIST_DIGEST}`)) {
      json(
        200,
        { mediaType: 'application/vnd.oci.image.manifest.v1+json', config: { digest: CONFIG } },
        {
          'docker-content-digest': LIST_DIGEST,
        },
      );
      return;
    }
    if (path.includes('/manifests/')) {
      json(
        200,
        {
          mediaType: 'application/vnd.oci.image.index.v1+json',
          manifests: [
            {
              digest: `sha256:${'d'.repeat(64)}`,
              platform: { os: 'linux', architecture: 'arm64' },
            },
            { digest: LIST_DIGEST, platform: { os: 'linux', architecture: 'amd64' } },
          ],
        },
        { 'docker-content-digest': DIGEST },
      );
      return;
    }
    json(404, {});
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  port = (server.address() as AddressInfo).port;
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));

/** The fake serves each mode under a path prefix: the repository carries it. */
const refFor = (_mode: string): ImageRef => ({
  registry: `127.0.0.1:${port}`,
  repository: 'team/app',
  tag: '1.0',
  digest: null,
});
const clientFor = (mode: string, creds = true) =>
  new RegistryClient({
    credentials: () => Promise.resolve(creds ? { username: 'bob', password: 'pw' } : null),
    timeoutMs: 1000,
    maxBytes: 256 * 1024,
    fetch: (input, init) => fetch((input as string).replace('/v2/', `/${mode}/v2/`), init),
  });

describe('registry client', () => {
  it('parses references as the engine names them', () => {
    expect(parseImageRef('nginx')).toEqual({
      registry: 'docker.io',
      repository: 'library/nginx',
      tag: 'latest',
      digest: null,
    });
    expect(parseImageRef('127.0.0.1:5000/a/b:1.2')).toMatchObject({
      registry: '127.0.0.1:5000',
      repository: 'a/b',
      tag: '1.2',
    });
    expect(parseImageRef('ghcr.io/o/r@sha256:abc')).toMatchObject({ digest: 'sha256:abc' });
    expect(
      parseChallenge('Bearer realm="https://a/t",service="s",scope="repository:x:pull"'),
    ).toEqual({
      scheme: 'bearer',
      params: { realm: 'https://a/t', service: 's', scope: 'repository:x:pull' },
    });
  });

  it('follows the bearer-token flow with credentials, pages tags and resolves the platform', async () => {
    const client = clientFor('bearer');
    expect(await client.listTags(refFor('bearer'))).toEqual(['1.0', '1.1', '2.0']);
    const m = await client.manifest(refFor('bearer'), '1.0', {
      os: 'linux',
      architecture: 'amd64',
    });
    expect(m).toMatchObject({ digest: DIGEST, configDigest: CONFIG });
    // The token was reused: one token request for all of it.
    expect(seen.filter((s) => s.startsWith('GET /token')).length).toBe(1);
  });

  it('uses basic auth when the registry asks for it, and says when it has none', async () => {
    expect(await clientFor('basic').listTags(refFor('basic'))).toEqual(['1.0', '1.1', '2.0']);
    await expect(clientFor('basic', false).listTags(refFor('basic'))).rejects.toThrow(
      /needs credentials/,
    );
    await expect(clientFor('bearer', false).listTags(refFor('bearer'))).rejects.toThrow(
      /Token server .* refused \(401\)/,
    );
  });

  it('turns garbage, silence, huge answers and a closed port into clear errors', async () => {
    await expect(clientFor('garbage').listTags(refFor('garbage'))).rejects.toThrow(/not JSON/);
    await expect(clientFor('slow').listTags(refFor('slow'))).rejects.toThrow(/within 1 s/);
    await expect(clientFor('huge').listTags(refFor('huge'))).rejects.toThrow(/larger than/);
    const closed = new RegistryClient({ timeoutMs: 1000 });
    await expect(
      closed.listTags({ registry: '127.0.0.1:1', repository: 'a/b', tag: 'x', digest: null }),
    ).rejects.toThrow(/unreachable/);
  });
});
