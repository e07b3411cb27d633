import { randomUUID } from 'node:crypto';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { EnrollmentTokenResponse, Host } from '@berth/contracts';
import { afterAll, beforeAll, expect, it } from 'vitest';
import {
  buildAgent,
  exitedEarly,
  spawnAgent,
  type AgentProcess,
} from '../../test/agent-process.js';
import { apiClient } from '../../test/api.js';
import { listenOnLoopback } from '../../test/listen.js';
import { rigSocketPath } from '../../test/rig.js';
import { buildTestApp, signedInCookie, type TestApp } from '../../test/test-app.js';
import { waitFor } from '../../test/wait.js';

// A real agent process told to wait (429 with Retry-After) at its enrollment and at its first
// connect, as Berth's per-address throttle tells a flooded address: it waits what it was
// asked instead of exiting or redialling at its own first step (0.5-1 s), then comes online.
// The 429s come from a loopback relay in front of Berth, so the test waits 2 s, not the
// throttle's minute.
const RETRY_AFTER_S = 2;
let t: TestApp;
let api: ReturnType<typeof apiClient>;
let relay: net.Server;
let agent: AgentProcess | undefined;
const dataDir = mkdtempSync(join(tmpdir(), 'berth-agent-retry-'));
/** When each enrollment and each connect reached the relay, in order. */
const seen = { enroll: [] as number[], connect: [] as number[] };

/** Refuses the first request to each endpoint with a 429; relays every other byte to Berth. */
async function startRelay(berthPort: number): Promise<number> {
  relay = net.createServer((client) => {
    client.on('error', () => undefined);
    client.once('data', (first: Buffer) => {
      const line = first.toString('latin1', 0, 64);
      const kind = line.startsWith('POST /api/agents/enroll')
        ? 'enroll'
        : line.startsWith('GET /api/agents/connect')
          ? 'connect'
          : null;
      if (kind !== null) seen[kind].push(performance.now());
      if (kind !== null && seen[kind].length === 1) {
        const body = JSON.stringify({ detail: 'Too many failed agent attempts' });
        client.end(
          `HTTP/1.1 429 Too Many Requests\r\nretry-after: ${RETRY_AFTER_S}\r\n` +
            `content-type: application/json\r\ncontent-length: ${body.length}\r\n` +
            `connection: close\r\n\r\n${body}`,
        );
        return;
      }
      const upstream = net.connect(berthPort, '127.0.0.1');
      upstream.on('error', () => client.destroy());
      client.on('close', () => upstream.destroy());
      upstream.write(first);
      client.pipe(upstream).pipe(client);
    });
  });
  relay.listen(0, '127.0.0.1');
  await once(relay, 'listening');
  return (relay.address() as net.AddressInfo).port;
}

beforeAll(async () => {
  buildAgent();
  t = await buildTestApp();
  const base = await listenOnLoopback(t.app);
  api = apiClient(t.app, await signedInCookie(t.app));
  const port = await startRelay(Number(new URL(base).port));
  const { token } = (await api.post<EnrollmentTokenResponse>('/agents/enrollment-tokens')).body;
  agent = spawnAgent({
    BERTH_URL: `http://127.0.0.1:${port}`,
    BERTH_AGENT_TOKEN: token,
    BERTH_AGENT_DATA_DIR: dataDir,
    BERTH_AGENT_DOCKER_SOCKET: rigSocketPath('plain'),
    BERTH_AGENT_NAME: `retry-${randomUUID().slice(0, 8)}`,
  });
}, 180_000);

afterAll(async () => {
  agent?.child.kill('SIGKILL');
  relay.close();
  await t.close();
  rmSync(dataDir, { recursive: true, force: true });
});

it('waits the Retry-After of a 429 at enrollment and at connect, then comes online', async () => {
  if (agent === undefined) throw new Error('no agent');
  const running = agent;
  await Promise.race([
    waitFor(
      'the agent host online',
      async () => (await api.get<Host[]>('/hosts')).body.find((h) => h.status === 'online'),
      20_000,
    ),
    exitedEarly(running),
  ]);
  expect(seen.enroll).toHaveLength(2);
  expect(seen.connect.length).toBeGreaterThanOrEqual(2);
  const gap = (times: number[]) => (times[1] ?? 0) - (times[0] ?? 0);
  expect(gap(seen.enroll)).toBeGreaterThanOrEqual(RETRY_AFTER_S * 1000 - 10);
  expect(gap(seen.connect)).toBeGreaterThanOrEqual(RETRY_AFTER_S * 1000 - 10);
  const said = running.lines().join('\n');
  expect(said).toMatch(/Berth refused the enrollment \(429\)[^"]*: enrolling again in [23] s/);
  expect(said).toMatch(/Berth refused the connection \(429\): connecting again in [23] s/);
  expect(running.child.exitCode).toBeNull();
}, 30_000);
