import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomUUID } from 'node:crypto';
import { ConnectError, connectToBerth } from '@berth/agent';
import {
  AGENT_PROTOCOL,
  AGENT_PROTOCOL_HEADER,
  AGENT_TOKEN_HEADER,
  AGENT_VERSION_HEADER,
  AGENT_CAPABILITIES_HEADER,
  agentSecretHeaderValue,
  type AgentEnrollResponse,
  type AgentNewSecret,
  type BerthEvent,
  type EnrollmentTokenResponse,
  type EventsResponse,
  type Host,
  type RotateAgentSecretResponse,
  type TestConnectionResponse,
} from '@berth/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  buildAgent,
  exitedEarly,
  spawnAgent,
  type AgentProcess,
} from '../../test/agent-process.js';
import { apiClient } from '../../test/api.js';
import { listenOnLoopback } from '../../test/listen.js';
import { captureLog } from '../../test/log-capture.js';
import { rigSocketPath } from '../../test/rig.js';
import {
  buildTestApp,
  CHANGED_PASSWORD,
  login,
  signedInCookie,
  type TestApp,
} from '../../test/test-app.js';
import { waitFor } from '../../test/wait.js';

const plainSocket = () => rigSocketPath('plain');

/** What the host list, Test Connection and secret rotation make of agent hosts. */
describe('agent hosts', () => {
  let t: TestApp;
  let api: ReturnType<typeof apiClient>;
  let base: string;
  const dataDir = mkdtempSync(join(tmpdir(), 'berth-agent-'));
  const name = `agent-${randomUUID().slice(0, 8)}`;
  let agent: AgentProcess | undefined;
  let log: Record<string, unknown>[];

  const hostNamed = async (hostName: string) =>
    (await api.get<Host[]>('/hosts')).body.find((h) => h.name === hostName);
  const waitForHost = (what: string, ok: (h: Host) => boolean, timeoutMs?: number) =>
    waitFor(
      what,
      async () => {
        const host = await hostNamed(name);
        return host !== undefined && ok(host) ? host : undefined;
      },
      timeoutMs,
    );
  const connectWith = (secret: string, headers: Record<string, string>, at = base) =>
    connectToBerth({
      url: `${at.replace('http://', 'ws://')}/api/agents/connect`,
      headers: { authorization: agentSecretHeaderValue(secret), ...headers },
      socketPath: plainSocket(),
    });
  const enrollByHand = async (hostName: string, at = { base, api }) => {
    const tokens = await at.api.post<EnrollmentTokenResponse>('/agents/enrollment-tokens');
    const res = await fetch(`${at.base}/api/agents/enroll`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', [AGENT_TOKEN_HEADER]: tokens.body.token },
      body: JSON.stringify({ name: hostName, version: '0.1.0' }),
    });
    expect(res.status).toBe(201);
    return (await res.json()) as AgentEnrollResponse;
  };
  const readSecret = () => readFileSync(join(dataDir, 'secret'), 'utf8');
  const hostEvents = async (hostId: string): Promise<BerthEvent[]> =>
    (await api.get<EventsResponse>(`/events?category=host&host_id=${hostId}`)).body.events;
  const testConnection = (host: Host) =>
    api.post<TestConnectionResponse | { detail: string }>('/hosts/test-connection', {
      name: host.name,
      url: host.url,
    });

  beforeAll(async () => {
    buildAgent();
    t = await buildTestApp({ BERTH_LOG_LEVEL: 'warn', BERTH_LOG_FORMAT: 'json' });
    log = captureLog(t.app);
    base = await listenOnLoopback(t.app);
    api = apiClient(t.app, await signedInCookie(t.app));
  }, 180_000);

  afterAll(async () => {
    agent?.child.kill('SIGKILL');
    await t.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('refuses an agent of another protocol with 426, and its host says why until one fits', async () => {
    const hostName = `old-${randomUUID().slice(0, 8)}`;
    const { secret } = await enrollByHand(hostName);
    const old = connectWith(secret, {
      [AGENT_VERSION_HEADER]: '0.0.9',
      [AGENT_PROTOCOL_HEADER]: '0',
    });
    await expect(old).rejects.toBeInstanceOf(ConnectError);
    await expect(old).rejects.toMatchObject({ status: 426 });
    const said = `Agent 0.0.9 speaks protocol 0; this Berth speaks protocol ${AGENT_PROTOCOL}: update the agent`;
    expect((await hostNamed(hostName))?.error).toBe(said);
    // Logged as a warning with the reason, and never the secret.
    expect(log.findLast((l) => l.msg === said)).toMatchObject({ level: 40, status: 426 });
    expect(JSON.stringify(log)).not.toContain(secret);
    // No protocol at all (an agent from before protocols) is refused the same way.
    await expect(connectWith(secret, {})).rejects.toMatchObject({ status: 426 });
    expect((await hostNamed(hostName))?.error).toBe(
      `Agent unknown announces no protocol; this Berth speaks protocol ${AGENT_PROTOCOL}: update the agent`,
    );

    // A compatible agent with the same secret is taken, and the refusal is forgotten.
    const fits = await connectWith(secret, {
      [AGENT_VERSION_HEADER]: '0.2.0',
      [AGENT_PROTOCOL_HEADER]: String(AGENT_PROTOCOL),
      [AGENT_CAPABILITIES_HEADER]: 'http-probe, teleport',
    });
    try {
      const host = await waitFor('the compatible agent online', async () => {
        const h = await hostNamed(hostName);
        return h?.status === 'online' ? h : undefined;
      });
      expect(host.error).toBeNull();
      expect(host.connection).toMatchObject({
        type: 'agent',
        agent: { version: '0.2.0', capabilities: ['http-probe'], connected: true, insecure: true },
      });
      expect(Date.parse(host.connection.agent?.last_connected_at ?? '')).toBeGreaterThan(
        Date.now() - 60_000,
      );
      // Over plain ws:// the agent host warns like plain TCP does.
      expect(host.security_status).toBe('insecure');
    } finally {
      fits.socket.close();
    }
  });

  it('counts an agent behind a trusted TLS proxy (X-Forwarded-Proto: https) as secure', async () => {
    const proxied = await buildTestApp({ BERTH_TRUST_PROXY: 'true' });
    try {
      const at = {
        base: await listenOnLoopback(proxied.app),
        api: apiClient(proxied.app, await signedInCookie(proxied.app)),
      };
      const hostName = `proxied-${randomUUID().slice(0, 8)}`;
      const { secret } = await enrollByHand(hostName, at);
      const through = await connectWith(
        secret,
        { [AGENT_PROTOCOL_HEADER]: String(AGENT_PROTOCOL), 'x-forwarded-proto': 'https' },
        at.base,
      );
      try {
        const host = await waitFor('the proxied agent online', async () => {
          const h = (await at.api.get<Host[]>('/hosts')).body.find((x) => x.name === hostName);
          return h?.status === 'online' ? h : undefined;
        });
        expect(host.connection.agent?.insecure).toBe(false);
        expect(host.security_status).toBe('secure');
      } finally {
        through.socket.close();
      }
    } finally {
      await proxied.close();
    }
  });

  it('tells connection types apart on every host, and keeps agent hosts out of the create form', async () => {
    const created = await api.post<Host>('/hosts', {
      name: `tcp-${randomUUID().slice(0, 8)}`,
      url: 'tcp://192.0.2.10:2375',
    });
    expect(created.status).toBe(200);
    expect(created.body.connection).toEqual({ type: 'tcp', agent: null });
    const direct = await api.post<{ detail: string }>(
      `/hosts/${created.body.id}/agent/rotate-secret`,
    );
    expect(direct.status).toBe(400);
    expect(direct.body.detail).toBe('This host is not connected through an agent');
    expect((await api.post('/hosts/no-such-host/agent/rotate-secret')).status).toBe(404);
    expect((await api.delete(`/hosts/${created.body.id}`)).status).toBe(200);
    const typed = await api.post<{ detail: string }>('/hosts', {
      name: 'typed',
      url: `agent://${randomUUID()}`,
    });
    expect(typed.status).toBe(400);
    expect(typed.body.detail).toMatch(/^An agent host is added by enrolling its agent/);
  });

  it('runs a real agent: Test Connection through it, the same as a direct engine', async () => {
    const { token } = (await api.post<EnrollmentTokenResponse>('/agents/enrollment-tokens')).body;
    agent = spawnAgent({
      BERTH_URL: base,
      BERTH_AGENT_TOKEN: token,
      BERTH_AGENT_DATA_DIR: dataDir,
      BERTH_AGENT_DOCKER_SOCKET: plainSocket(),
      BERTH_AGENT_NAME: name,
    });
    const running = agent;
    const host = await Promise.race([
      waitForHost('the agent host online', (h) => h.status === 'online'),
      exitedEarly(running),
    ]);
    expect(host.connection).toMatchObject({
      type: 'agent',
      agent: { version: '0.1.0', connected: true, insecure: true },
    });
    const tested = await testConnection(host);
    expect(tested.status).toBe(200);
    expect(tested.body).toMatchObject({ success: true, message: 'Connection successful' });
    expect((tested.body as TestConnectionResponse).docker_version).toBe(host.docker_version);

    // The edit form sends the agent's URL back unchanged; it may not be changed.
    const renamed = await api.put<Host>(`/hosts/${host.id}`, {
      name: host.name,
      url: host.url,
      tags: ['agent'],
    });
    expect(renamed.status).toBe(200);
    expect(renamed.body.tags).toEqual(['agent']);
    const moved = await api.put<{ detail: string }>(`/hosts/${host.id}`, {
      name: host.name,
      url: 'tcp://192.0.2.11:2375',
    });
    expect(moved.status).toBe(400);
    expect(moved.body.detail).toBe("An agent host's address is its agent's and cannot change");
  });

  it('rotates the secret of a connected agent without cutting it; the old secret is dead', async () => {
    const running = agent;
    if (running === undefined) throw new Error('no agent running');
    const host = await waitForHost('the agent host online', (h) => h.status === 'online');
    const before = readSecret();
    const rotated = await api.post<RotateAgentSecretResponse>(
      `/hosts/${host.id}/agent/rotate-secret`,
    );
    expect(rotated.status).toBe(200);
    expect(rotated.body.ok).toBe(true);
    expect(
      (await hostEvents(host.id)).find((e) => e.event_type === 'agent_secret_rotated'),
    ).toMatchObject({
      severity: 'info',
      title: 'Agent secret rotated',
      host_name: name,
      triggered_by: 'admin',
    });
    const after = readSecret();
    expect(after).not.toBe(before);
    expect(statSync(join(dataDir, 'secret')).mode & 0o777).toBe(0o600);
    expect(running.child.exitCode).toBeNull();
    expect((await hostNamed(name))?.status).toBe('online');
    expect(running.lines().join('\n')).not.toContain(after);
    await expect(connectWith(before, {})).rejects.toMatchObject({ status: 401 });

    // Berth restarts: the agent comes back by itself, with the new secret.
    const app = await t.restart();
    await listenOnLoopback(app, Number(new URL(base).port));
    api = apiClient(app, await login(app, CHANGED_PASSWORD));
    await Promise.race([
      waitForHost('the agent back online', (h) => h.status === 'online', 15_000),
      exitedEarly(running),
    ]);
    await expect(
      connectWith(before, { [AGENT_PROTOCOL_HEADER]: String(AGENT_PROTOCOL) }),
    ).rejects.toMatchObject({ status: 401 });
  });

  it('records a rotation in the event log, by whom; a lost answer ends when the agent switches', async () => {
    const hostName = `lost-${randomUUID().slice(0, 8)}`;
    const { secret, host_id: hostId } = await enrollByHand(hostName);
    // An agent that stores its new secret but whose answer never reaches Berth.
    let sent: string | undefined;
    const handlers = new Map([
      [
        'POST /v1/secret',
        (body: unknown) => {
          sent = (body as AgentNewSecret).secret;
          return Promise.reject(new Error('answer lost'));
        },
      ],
    ]);
    const compatible = { [AGENT_PROTOCOL_HEADER]: String(AGENT_PROTOCOL) };
    const first = await connectToBerth({
      url: `${base.replace('http://', 'ws://')}/api/agents/connect`,
      headers: { authorization: agentSecretHeaderValue(secret), ...compatible },
      socketPath: plainSocket(),
      handlers,
    });
    await waitFor('the hand-made agent online', async () =>
      (await hostNamed(hostName))?.status === 'online' ? true : undefined,
    );
    const failed = await api.post<{ detail: string }>(`/hosts/${hostId}/agent/rotate-secret`);
    expect(failed.status).toBe(409);
    // A failed rotation changed nothing an operator must trace.
    expect((await hostEvents(hostId)).map((e) => e.title)).not.toContain('Agent secret rotated');
    first.socket.close();
    await waitFor('the hand-made agent gone', async () =>
      (await hostNamed(hostName))?.connection.agent?.connected === false ? true : undefined,
    );
    if (sent === undefined) throw new Error('no secret sent');
    const second = await connectWith(sent, compatible);
    try {
      const switched = await waitFor('the switch in the event log', async () =>
        (await hostEvents(hostId)).find((e) => e.event_type === 'agent_secret_switched'),
      );
      expect(switched).toMatchObject({
        severity: 'info',
        category: 'host',
        title: 'Agent switched to its new secret',
        host_name: hostName,
        triggered_by: 'system',
      });
      second.socket.close();
      await waitFor('the hand-made agent gone again', async () =>
        (await hostNamed(hostName))?.connection.agent?.connected === false ? true : undefined,
      );
      // The switch settled it: the secret from before the rotation is refused.
      await expect(connectWith(secret, compatible)).rejects.toMatchObject({ status: 401 });
    } finally {
      second.socket.close();
    }
  });

  it('needs the agent connected to rotate or test, and says so', async () => {
    const host = await waitForHost('the agent host online', (h) => h.status === 'online');
    agent?.child.kill('SIGKILL');
    await waitForHost('the agent gone', (h) => h.connection.agent?.connected === false, 10_000);
    const rotate = await api.post<{ detail: string }>(`/hosts/${host.id}/agent/rotate-secret`);
    expect(rotate.status).toBe(409);
    expect(rotate.body.detail).toBe('The agent must be connected to rotate its secret');
    const tested = await testConnection(host);
    expect(tested.status).toBe(400);
    expect((tested.body as { detail: string }).detail).toBe('The agent is not connected');
    const offline = await hostNamed(name);
    expect(offline?.connection.agent?.connected).toBe(false);
  });
});
