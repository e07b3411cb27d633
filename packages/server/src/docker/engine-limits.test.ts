import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  garbageEngine,
  httpEngine,
  silentEngine,
  writeChunked,
  type FakeEngine,
} from '../test/fake-engines.js';
import { endpointOf, rigEngine } from '../test/rig.js';
import { readContainerStats } from './engine-stats.js';
import { createEngineClient, describeEngineError, probeEngine } from './index.js';

const MiB = 1024 * 1024;
let fake: FakeEngine | undefined;
afterEach(async () => {
  await fake?.close();
  fake = undefined;
});

/** The rejection of `promise` and how long it took to come. */
async function failure(promise: Promise<unknown>): Promise<{ err: unknown; ms: number }> {
  const started = Date.now();
  const err = await promise.then(
    () => new Error('expected a failure'),
    (e: unknown) => e,
  );
  return { err, ms: Date.now() - started };
}

describe('an engine that accepts and never answers', () => {
  it('fails a call within the first-byte timeout (tcp)', async () => {
    fake = await silentEngine();
    const { err, ms } = await failure(createEngineClient(fake, { timeoutMs: 1000 }).version());
    expect(describeEngineError(err, fake.url)).toBe('Engine did not answer within 1 s');
    expect(ms).toBeGreaterThanOrEqual(900);
    expect(ms).toBeLessThan(3000);
  });

  it('fails a call within the first-byte timeout (unix socket)', async () => {
    fake = await silentEngine(join(mkdtempSync(join(tmpdir(), 'berth-silent-')), 'docker.sock'));
    const { err, ms } = await failure(createEngineClient(fake, { timeoutMs: 1000 }).info());
    expect(describeEngineError(err, fake.url)).toBe('Engine did not answer within 1 s');
    expect(ms).toBeLessThan(3000);
  });

  it('fails the TLS handshake within the connect timeout', async () => {
    fake = await silentEngine();
    const tls = endpointOf(rigEngine('tls')).tls ?? null;
    const client = createEngineClient(
      { url: fake.url, tls },
      { timeoutMs: 5000, connectTimeoutMs: 800 },
    );
    const { err, ms } = await failure(client.ping());
    expect(describeEngineError(err, fake.url)).toBe(`Connection to ${fake.url} timed out`);
    expect(ms).toBeLessThan(2500);
  });

  it('is reported by the probe the same way', async () => {
    fake = await silentEngine();
    await expect(probeEngine(fake, 1000)).rejects.toThrow('Engine did not answer within 1 s');
  });
});

describe('an engine that answers garbage', () => {
  it('is not a Docker engine', async () => {
    fake = await garbageEngine();
    const { err } = await failure(createEngineClient(fake, { timeoutMs: 2000 }).version());
    expect(describeEngineError(err, fake.url)).toBe('Not a Docker engine');
    await expect(probeEngine(fake, 2000)).rejects.toThrow(`Not a Docker engine at ${fake.url}`);
  });

  it('is not a Docker engine when it is another HTTP server', async () => {
    fake = await httpEngine((_path, res) => {
      res.writeHead(404).end('<html>nope</html>');
    });
    const { err } = await failure(createEngineClient(fake, { timeoutMs: 2000 }).info());
    expect(describeEngineError(err, fake.url)).toBe('Not a Docker engine');
  });
});

describe('an oversized answer', () => {
  it('is cut off at the cap, not read whole', async () => {
    let ended: Promise<void> = Promise.resolve();
    fake = await httpEngine((_path, res, count) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      ended = writeChunked(res, 100 * MiB, ' ', count);
    });
    const before = process.memoryUsage();
    const { err } = await failure(createEngineClient(fake, { timeoutMs: 5000 }).listContainers());
    await ended;
    const after = process.memoryUsage();
    expect(describeEngineError(err, fake.url)).toBe('Engine answer too large');
    // The server can only get ahead of the reader by the sockets' buffers.
    expect(fake.written()).toBeLessThan(24 * MiB);
    expect(after.arrayBuffers - before.arrayBuffers).toBeLessThan(64 * MiB);
  });

  it('is refused up front when its length says so', async () => {
    fake = await httpEngine((_path, res) => {
      res.writeHead(200, { 'content-length': String(100 * MiB) });
      res.write('[');
    });
    const { err } = await failure(createEngineClient(fake, { timeoutMs: 5000 }).info());
    expect(describeEngineError(err, fake.url)).toBe('Engine answer too large');
  });

  it('is fine under the cap', async () => {
    fake = await httpEngine((_path, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ Version: '27.0.0', ApiVersion: '1.47', Os: 'linux' }));
    });
    await expect(probeEngine(fake, 2000)).resolves.toMatchObject({ api_version: '1.47' });
  });
});

describe('a stats read (sent without dockerode)', () => {
  const statsOf = (engine: FakeEngine, timeoutMs: number) =>
    readContainerStats(
      createEngineClient(engine, { timeoutMs }),
      'abc',
      AbortSignal.timeout(10_000),
    );

  it('is held to the first-byte timeout', async () => {
    fake = await silentEngine();
    const { err, ms } = await failure(statsOf(fake, 1000));
    expect(describeEngineError(err, fake.url)).toBe('Engine did not answer within 1 s');
    expect(ms).toBeLessThan(3000);
  });

  it('is cut off at the size cap', async () => {
    let ended: Promise<void> = Promise.resolve();
    fake = await httpEngine((_path, res, count) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      ended = writeChunked(res, 100 * MiB, ' ', count);
    });
    const { err } = await failure(statsOf(fake, 5000));
    await ended;
    expect(describeEngineError(err, fake.url)).toBe('Engine answer too large');
  });

  it('fails, not hangs, when the engine closes in the middle of the answer', async () => {
    fake = await httpEngine((_path, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': '100' });
      res.write('{"read":', () => res.socket?.destroy());
    });
    await expect(statsOf(fake, 5000)).rejects.toThrow();
  });

  it('asks for one sample and fails on an error status', async () => {
    const paths: string[] = [];
    fake = await httpEngine((path, res) => {
      paths.push(path);
      res.writeHead(404, { 'content-type': 'application/json' });
      res.end('{"message":"No such container: abc"}');
    });
    await expect(statsOf(fake, 2000)).rejects.toThrow(
      'Engine answered 404: {"message":"No such container: abc"}',
    );
    expect(paths).toEqual(['/containers/abc/stats?stream=false&one-shot=true']);
  });
});
