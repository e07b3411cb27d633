import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ReleaseFeedChecker } from './release-feed.js';
import { compareSemver, isNewerVersion } from './semver.js';

/** A loopback feed whose answer each test sets. */
let answer: (res: ServerResponse) => void = (res) => res.end('{}');
let server: Server;
let base: string;
beforeAll(async () => {
  server = createServer((_req, res) => answer(res));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => {
  server.closeAllConnections();
  return new Promise<void>((resolve) => server.close(() => resolve()));
});

const json = (body: unknown) => (res: ServerResponse) => {
  res.setHeader('content-type', 'application/json');
  res.end(typeof body === 'string' ? body : JSON.stringify(body));
};

function checker(url: string | null, extra: { timeoutMs?: number; maxBytes?: number } = {}) {
  const lines: { level: string; obj: Record<string, unknown>; msg: string }[] = [];
  const log = {
    info: (obj: object, msg: string) =>
      lines.push({ level: 'info', obj: obj as Record<string, unknown>, msg }),
    warn: (obj: object, msg: string) =>
      lines.push({ level: 'warn', obj: obj as Record<string, unknown>, msg }),
  };
  return { feed: new ReleaseFeedChecker({ url, currentVersion: '1.2.3', log, ...extra }), lines };
}

const release = { version: '1.3.0', url: 'https://example.com/releases/1.3.0', notes: 'Faster.' };

describe('release feed', () => {
  it('keeps a newer release', async () => {
    answer = json(release);
    const { feed, lines } = checker(`${base}/latest.json`);
    expect(await feed.check()).toEqual({ outcome: 'newer', release });
    expect(feed.newerRelease()).toEqual(release);
    expect(lines[0]).toMatchObject({ level: 'info', msg: 'a newer Berth release is available' });
  });

  it('an older or equal version: no release, and the reason logged', async () => {
    const { feed, lines } = checker(`${base}/latest.json`);
    for (const version of ['1.2.2', '1.2.3', 'v1.2.3', '1.2.3-rc.1']) {
      answer = json({ ...release, version });
      expect((await feed.check()).outcome).toBe('not-newer');
      expect(feed.newerRelease()).toBeNull();
    }
    expect(lines.at(-1)?.obj.reason).toMatch(/is not newer than 1\.2\.3/);
  });

  it('an older version after a newer one clears the card (the release was withdrawn)', async () => {
    const { feed } = checker(`${base}/latest.json`);
    answer = json(release);
    await feed.check();
    answer = json({ ...release, version: '1.0.0' });
    await feed.check();
    expect(feed.newerRelease()).toBeNull();
  });

  it.each([
    ['not JSON', json('<html>oops</html>'), /the answer is not JSON/],
    ['truncated JSON', json('{"version": "2.0.0", '), /the answer is not JSON/],
    ['a missing field', json({ version: '2.0.0', url: 'https://x.example/' }), /notes/],
    ['a bad version', json({ ...release, version: 'latest' }), /version: must be a semantic/],
    ['a non-http url', json({ ...release, url: 'javascript:alert(1)' }), /url/],
    ['an array', json([release]), /malformed answer/],
    [
      'an error status',
      (res: ServerResponse) => {
        res.statusCode = 500;
        res.end('boom');
      },
      /answered HTTP 500/,
    ],
  ])('%s: no release and a logged reason', async (_name, respond, reason) => {
    answer = respond;
    const { feed, lines } = checker(`${base}/latest.json`);
    const result = await feed.check();
    expect(result.outcome).toBe('failed');
    expect(feed.newerRelease()).toBeNull();
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({ level: 'warn', msg: 'release feed check failed' });
    expect(String(lines[0]?.obj.reason)).toMatch(reason);
  });

  it('unreachable: no release and a logged reason', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const { feed, lines } = checker(`http://127.0.0.1:${port}/latest.json`);
    expect(await feed.check()).toMatchObject({ outcome: 'failed' });
    expect(String(lines[0]?.obj.reason)).toMatch(/^unreachable: .*ECONNREFUSED/);
  });

  it('a feed that never answers is given up after the timeout', async () => {
    answer = () => undefined; // holds the request open
    const { feed, lines } = checker(`${base}/latest.json`, { timeoutMs: 300 });
    const started = Date.now();
    expect(await feed.check()).toEqual({ outcome: 'failed', reason: 'no answer within 300 ms' });
    expect(Date.now() - started).toBeLessThan(3000);
    expect(lines[0]?.level).toBe('warn');
  });

  it('an answer over the size cap is refused while it arrives', async () => {
    answer = (res) => {
      res.setHeader('content-type', 'application/json');
      res.write(`{"version":"9.9.9","url":"https://x.example/","notes":"`);
      res.write('x'.repeat(4096));
      res.end('"}');
    };
    const { feed } = checker(`${base}/latest.json`, { maxBytes: 1024 });
    expect(await feed.check()).toEqual({
      outcome: 'failed',
      reason: 'the answer is larger than 1024 bytes',
    });
  });

  it('a failed check keeps the release an earlier check found', async () => {
    const { feed } = checker(`${base}/latest.json`);
    answer = json(release);
    await feed.check();
    answer = json('garbage');
    await feed.check();
    expect(feed.newerRelease()).toEqual(release);
  });

  it('does nothing without a feed', () => {
    const { feed, lines } = checker(null);
    feed.start();
    feed.stop();
    expect(feed.newerRelease()).toBeNull();
    expect(lines).toEqual([]);
  });
});

describe('semver', () => {
  it.each([
    ['1.2.4', '1.2.3', 1],
    ['1.10.0', '1.9.9', 1],
    ['2.0.0', '2.0.0-rc.1', 1],
    ['2.0.0-rc.2', '2.0.0-rc.10', -1],
    ['2.0.0-alpha', '2.0.0-alpha.1', -1],
    ['2.0.0-alpha.beta', '2.0.0-alpha.1', 1],
    ['v1.0.0', '1.0.0+build.5', 0],
  ])('%s vs %s', (a, b, expected) => {
    expect(compareSemver(a, b)).toBe(expected);
  });

  it('never calls something that is not a version newer', () => {
    expect(compareSemver('latest', '1.0.0')).toBeNull();
    expect(isNewerVersion('latest', '1.0.0')).toBe(false);
    expect(isNewerVersion('01.0', '0.1.0')).toBe(false);
  });
});
