import { randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ConnectError, connectToBerth } from '@berth/agent';
import {
  AGENT_PROTOCOL,
  AGENT_PROTOCOL_HEADER,
  AGENT_TOKEN_HEADER,
  agentSecretHeaderValue,
  type Container,
  type EnrollmentTokenResponse,
  type EventsResponse,
  type Host,
} from '@berth/contracts';
import { sql } from 'kysely';
import WebSocket from 'ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  buildAgent,
  exitedEarly,
  spawnAgent,
  type AgentProcess,
} from '../../test/agent-process.js';
import { apiClient } from '../../test/api.js';
import { listenOnLoopback } from '../../test/listen.js';
import { dockerCli, readRig, rigEngine, rigSocketPath } from '../../test/rig.js';
import {
  buildTestApp,
  CHANGED_PASSWORD,
  login,
  signedInCookie,
  type TestApp,
} from '../../test/test-app.js';
import { AGENT_PING_MS } from './agents.routes.js';
import { waitFor } from '../../test/wait.js';

const plainSocket = () => rigSocketPath('plain');
/** What a compatible agent announces besides its secret (else it is refused with 426). */
const compatible = { [AGENT_PROTOCOL_HEADER]: String(AGENT_PROTOCOL) };

describe('enrolling an agent', () => {
  let t: TestApp;
  let api: ReturnType<typeof apiClient>;
  let base: string;
  const dataDir = mkdtempSync(join(tmpdir(), 'berth-agent-'));
  const name = `agent-${randomUUID().slice(0, 8)}`;
  const marker = `berth-agent-${randomUUID().slice(0, 8)}`;
  let agent: AgentProcess | undefined;

  const newToken = async () => {
    const res = await api.post<EnrollmentTokenResponse>('/agents/enrollment-tokens');
    expect(res.status).toBe(201);
    return res.body;
  };
  const enroll = (token: string | null) =>
    fetch(`${base}/api/agents/enroll`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        ...(token === null ? {} : { [AGENT_TOKEN_HEADER]: token }),
      },
      body: JSON.stringify({ name: 'another', version: '0.1.0' }),
    });
  const connectWith = (secret: string) =>
    connectToBerth({
      url: `${base.replace('http://', 'ws://')}/api/agents/connect`,
      headers: { authorization: agentSecretHeaderValue(secret), ...compatible },
      socketPath: plainSocket(),
    });

  const readSecret = () => readFileSync(join(dataDir, 'secret'), 'utf8');
  const waitForStatus = (status: Host['status'], timeoutMs?: number) =>
    waitFor(
      `the agent host ${status}`,
      async () => {
        const hosts = (await api.get<Host[]>('/hosts')).body;
        return hosts.find((h) => h.name === name && h.status === status);
      },
      timeoutMs,
    );

  beforeAll(async () => {
    buildAgent();
    t = await buildTestApp();
    base = await listenOnLoopback(t.app);
    api = apiClient(t.app, await signedInCookie(t.app));
    dockerCli(rigEngine('plain'), ['create', '--name', marker, readRig().images.busybox, 'true']);
  }, 180_000);

  afterAll(async () => {
    agent?.child.kill('SIGKILL');
    dockerCli(rigEngine('plain'), ['rm', '-f', marker]);
    await t.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('trades a token for a secret and brings the host online with its engine containers', async () => {
    const { token, expires_at } = await newToken();
    const hour = Date.parse(expires_at) - Date.now();
    expect(hour).toBeGreaterThan(59 * 60_000);
    expect(hour).toBeLessThanOrEqual(60 * 60_000);
    agent = spawnAgent({
      BERTH_URL: base,
      BERTH_AGENT_TOKEN: token,
      BERTH_AGENT_DATA_DIR: dataDir,
      BERTH_AGENT_DOCKER_SOCKET: plainSocket(),
      BERTH_AGENT_NAME: name,
    });
    const running = agent;
    const host = await Promise.race([waitForStatus('online'), exitedEarly(running)]);
    expect(host.url).toMatch(/^agent:\/\/[0-9a-f-]{36}$/);
    const containers = (await api.get<Container[]>('/containers')).body;
    expect(containers.filter((c) => c.host_id === host.id).map((c) => c.name)).toContain(marker);

    // The secret is the agent's alone: owner-only in its data dir, a hash in Berth.
    const secret = readSecret();
    expect(statSync(join(dataDir, 'secret')).mode & 0o777).toBe(0o600);
    const stored = await sql<{ secret_hash: string }>`select secret_hash from agents`.execute(
      t.app.services.db,
    );
    expect(stored.rows).toHaveLength(1);
    expect(stored.rows[0]?.secret_hash).not.toContain(secret);
    expect(running.lines().join('\n')).not.toContain(secret);
    expect(running.lines().join('\n')).not.toContain(token);

    // A used token is refused, as is a second connection with the same secret.
    const reused = await enroll(token);
    expect(reused.status).toBe(401);
    expect(await reused.json()).toEqual({ detail: 'Enrollment token refused' });
    await expect(connectWith(secret)).rejects.toMatchObject({ status: 409 });
  });

  it('goes offline when its agent process dies', async () => {
    agent?.child.kill('SIGKILL');
    await waitForStatus('offline', 10_000);
  });

  it('refuses an expired token, an unknown token and no token', async () => {
    const { token } = await newToken();
    await sql`update agent_enrollment_tokens set expires_at = ${new Date(0).toISOString()}`.execute(
      t.app.services.db,
    );
    for (const refused of [token, 'not-a-token', null]) {
      const res = await enroll(refused);
      expect(res.status).toBe(401);
      expect(await res.json()).toEqual({ detail: 'Enrollment token refused' });
    }
  });

  it('refuses a connection with a wrong secret or none', async () => {
    const wrong = connectWith('wrong-secret');
    await expect(wrong).rejects.toBeInstanceOf(ConnectError);
    await expect(wrong).rejects.toMatchObject({ status: 401 });
    const none = await fetch(`${base}/api/agents/connect`);
    expect(none.status).toBe(401);
    expect(await none.json()).toEqual({ detail: 'Agent secret refused' });
  });

  it('cuts an agent that stops answering its pings', async () => {
    const silent = new WebSocket(`${base.replace('http://', 'ws://')}/api/agents/connect`, {
      headers: { authorization: agentSecretHeaderValue(readSecret()), ...compatible },
      autoPong: false,
    });
    const closed = new Promise((resolve) => silent.once('close', resolve));
    await new Promise((resolve) => silent.once('open', resolve));
    const started = performance.now();
    await closed;
    // Unanswered at the second ping: between one and two intervals after the connect.
    expect(performance.now() - started).toBeLessThan(2 * AGENT_PING_MS + 1000);
  });

  it('comes back by itself after Berth restarts, which does not wait on it', async () => {
    // What happened while the agent was away is replayed from the engine once it is back.
    const host = await waitForStatus('offline');
    dockerCli(rigEngine('plain'), ['start', '--attach', marker]);
    agent = spawnAgent({
      BERTH_URL: base,
      BERTH_AGENT_DATA_DIR: dataDir,
      BERTH_AGENT_DOCKER_SOCKET: plainSocket(),
    });
    const running = agent;
    await Promise.race([waitForStatus('online'), exitedEarly(running)]);
    await waitFor('the start during the gap in the event log', async () => {
      const { events } = (await api.get<EventsResponse>(`/events/host/${host.id}?limit=50`)).body;
      return events.some((e) => e.container_name === marker && e.new_state === 'running');
    });
    const started = performance.now();
    const app = await t.restart();
    expect(performance.now() - started).toBeLessThan(5000);
    await listenOnLoopback(app, Number(new URL(base).port));
    api = apiClient(app, await login(app, CHANGED_PASSWORD));
    await Promise.race([waitForStatus('online', 10_000), exitedEarly(running)]);
  });

  it('closes the connection of a deleted host, whose secret is then refused', async () => {
    const running = agent;
    if (running === undefined) throw new Error('no agent running');
    const host = await waitForStatus('online');
    expect((await api.delete(`/hosts/${host.id}`)).status).toBeLessThan(300);
    // The agent redials at once and is told its secret is gone: it stops, no retry can help.
    expect(await running.exited).toBe(1);
    expect(running.lines().join('\n')).toContain('Berth refused the connection (401)');
  });
});
