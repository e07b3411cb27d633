import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Duplex } from 'node:stream';
import { afterEach, expect, it } from 'vitest';
import type { AgentConfig } from './config.js';
import { agentSecret } from './enroll.js';
import { MAX_RETRY_AFTER_MS, retryAfterDelayMs } from './retry-after.js';
import { stayConnected } from './run.js';

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

/** A fake Berth answering each request (and each upgrade) with the next of `answers`. */
async function fakeBerth(
  answers: { status: number; headers?: Record<string, string>; body?: unknown }[],
): Promise<{ base: string; seenAt: number[] }> {
  const seenAt: number[] = [];
  const next = () => answers[Math.min(seenAt.length - 1, answers.length - 1)] ?? { status: 500 };
  const server: Server = createServer((req: IncomingMessage, res: ServerResponse) => {
    req.resume();
    seenAt.push(performance.now());
    const answer = next();
    res.writeHead(answer.status, { 'content-type': 'application/json', ...answer.headers });
    res.end(JSON.stringify(answer.body ?? { detail: 'refused' }));
  });
  server.on('upgrade', (_req: IncomingMessage, socket: Duplex) => {
    seenAt.push(performance.now());
    const answer = next();
    const headers = Object.entries(answer.headers ?? {}).map(([k, v]) => `${k}: ${v}\r\n`);
    socket.end(`HTTP/1.1 ${answer.status} Refused\r\n${headers.join('')}content-length: 0\r\n\r\n`);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  cleanups.push(() => new Promise((resolve) => server.close(resolve)));
  return { base: `127.0.0.1:${(server.address() as AddressInfo).port}`, seenAt };
}

async function configFor(base: string): Promise<AgentConfig> {
  const dataDir = await mkdtemp(join(tmpdir(), 'berth-agent-retry-'));
  cleanups.push(() => rm(dataDir, { recursive: true, force: true }));
  return {
    connectUrl: `ws://${base}/api/agents/connect`,
    enrollUrl: `http://${base}/api/agents/enroll`,
    socketPath: join(dataDir, 'no-engine.sock'),
    dataDir,
    token: 'enrollment-token',
    name: 'retry-test',
    hostProc: '/proc',
    diskPath: null,
    insecure: true,
  };
}

const throttled = { status: 429, headers: { 'retry-after': '2' } };

it('reads Retry-After as seconds or a date, capped, with up to a quarter more', () => {
  expect(retryAfterDelayMs('2', 0, () => 0)).toBe(2000);
  expect(retryAfterDelayMs('2', 0, () => 1)).toBe(2500);
  expect(retryAfterDelayMs(['4'], 0, () => 0)).toBe(4000);
  const now = Date.parse('2026-01-01T00:00:00Z');
  expect(retryAfterDelayMs('Thu, 01 Jan 2026 00:00:30 GMT', now, () => 0)).toBe(30_000);
  expect(retryAfterDelayMs('86400', 0, () => 0)).toBe(MAX_RETRY_AFTER_MS);
  // Nothing usable: the caller's own backoff applies.
  for (const value of [undefined, '', '0', '-3', 'soon', 'Thu, 01 Jan 2025 00:00:00 GMT'])
    expect(retryAfterDelayMs(value, now, () => 0)).toBeNull();
});

it('waits the Retry-After of a throttled enrollment, then enrolls, instead of exiting', async () => {
  const berth = await fakeBerth([
    throttled,
    { status: 201, body: { agent_id: 'a1', host_id: 'h1', secret: 'the-secret' } },
  ]);
  const config = await configFor(berth.base);
  await expect(agentSecret(config, '0.1.0')).resolves.toBe('the-secret');
  expect(berth.seenAt).toHaveLength(2);
  // Its own first backoff step is 0.5-1 s: the 2 s come from the header.
  const [first = 0, second = 0] = berth.seenAt;
  expect(second - first).toBeGreaterThanOrEqual(1990);
});

it('stops at a refused token (401) without asking again', async () => {
  const berth = await fakeBerth([{ status: 401, body: { detail: 'Enrollment token refused' } }]);
  const config = await configFor(berth.base);
  await expect(agentSecret(config, '0.1.0')).rejects.toThrow(
    'Berth refused the enrollment (401): Enrollment token refused',
  );
  expect(berth.seenAt).toHaveLength(1);
});

it('a stop while it waits to enroll again ends the wait', async () => {
  const berth = await fakeBerth([{ status: 429, headers: { 'retry-after': '60' } }]);
  const config = await configFor(berth.base);
  const stop = new AbortController();
  const enrolling = agentSecret(config, '0.1.0', stop.signal);
  await expect.poll(() => berth.seenAt.length).toBe(1);
  stop.abort();
  await expect(enrolling).rejects.toThrow(/abort/i);
});

it('waits the Retry-After of a throttled connect, then dials again', async () => {
  // The second answer, a refused secret, ends the loop with exit code 1.
  const berth = await fakeBerth([throttled, { status: 401 }]);
  const config = await configFor(berth.base);
  const stop = new AbortController();
  cleanups.push(() => {
    stop.abort();
    return Promise.resolve();
  });
  await expect(
    stayConnected(config, () => Promise.resolve('secret'), '0.1.0', stop.signal),
  ).resolves.toBe(1);
  expect(berth.seenAt).toHaveLength(2);
  const [first = 0, second = 0] = berth.seenAt;
  expect(second - first).toBeGreaterThanOrEqual(1990);
});
