import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { EnrollmentTokenResponse, Host } from '@berth/contracts';
import { buildAgent, exitedEarly, spawnAgent, type AgentProcess } from './agent-process.js';
import { apiClient } from './api.js';
import { startCutProxy, type CutProxy } from './cut-proxy.js';
import { rigEngine, type RigEngine } from './rig.js';
import { buildTestApp, signedInCookie, type TestApp } from './test-app.js';
import { waitFor } from './wait.js';

/** How Berth reaches an engine: straight over TCP, or through an agent process's tunnel. */
export type Transport = 'direct' | 'agent';
export const TRANSPORTS: Transport[] = ['direct', 'agent'];

/**
 * The rig's plain engine as a host of a fresh test app, reached one way or the other; either
 * way through a loopback proxy (test/cut-proxy.ts) whose cut or close stands for the network
 * or the far side going away: the engine's TCP port for `direct`, Berth's port for `agent`.
 */
export interface TransportHost {
  transport: Transport;
  t: TestApp;
  api: ReturnType<typeof apiClient>;
  cookie: string;
  host: Host;
  /** The engine behind the host, for the docker CLI. */
  engine: RigEngine;
  proxy: CutProxy;
  /** The agent process (agent transport only); `startAgent` brings another one up. */
  agent: AgentProcess | null;
  startAgent: () => AgentProcess;
  waitForStatus: (status: Host['status'], timeoutMs?: number) => Promise<Host>;
  close: () => Promise<void>;
}

const portOf = (url: string) => Number(new URL(url.replace(/^tcp:/, 'http:')).port);
const unixPath = (socket: string) => socket.replace(/^unix:\/\//, '');

export async function openTransportHost(
  transport: Transport,
  env: Record<string, string> = {},
  /** More of the agent's environment (BERTH_AGENT_READ_ONLY); the agent transport only. */
  extraAgentEnv: Record<string, string> = {},
): Promise<TransportHost> {
  const engine = rigEngine('plain');
  const t = await buildTestApp(env);
  await t.app.listen({ host: '127.0.0.1', port: 0 });
  const address = t.app.server.address();
  if (address === null || typeof address === 'string') throw new Error('not listening');
  const cookie = await signedInCookie(t.app);
  const api = apiClient(t.app, cookie);
  const name = `${transport}-${randomBytes(3).toString('hex')}`;
  const proxy = await startCutProxy(transport === 'direct' ? portOf(engine.url) : address.port);
  const dataDir = mkdtempSync(join(tmpdir(), 'berth-agent-'));

  const waitForStatus = (status: Host['status'], timeoutMs?: number) =>
    waitFor(
      `host ${name} ${status}`,
      async () =>
        (await api.get<Host[]>('/hosts')).body.find((h) => h.name === name && h.status === status),
      timeoutMs,
    );
  const agentEnv = {
    BERTH_URL: `http://127.0.0.1:${proxy.port}`,
    BERTH_AGENT_DATA_DIR: dataDir,
    BERTH_AGENT_DOCKER_SOCKET: unixPath(engine.socket),
    BERTH_AGENT_NAME: name,
    // Plain http on loopback; the agent refuses it unless told.
    BERTH_AGENT_INSECURE: '1',
    ...extraAgentEnv,
  };
  const fixture: TransportHost = {
    transport,
    t,
    api,
    cookie,
    host: undefined as unknown as Host,
    engine,
    proxy,
    agent: null,
    // A later agent finds its secret in the data dir the first one enrolled into.
    startAgent: () => (fixture.agent = spawnAgent(agentEnv)),
    waitForStatus,
    close: async () => {
      fixture.agent?.child.kill('SIGKILL');
      await proxy.close();
      await t.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };

  if (transport === 'direct') {
    const res = await api.post<Host>('/hosts', { name, url: `tcp://127.0.0.1:${proxy.port}` });
    if (res.status !== 200) throw new Error(`adding the host failed: ${JSON.stringify(res.body)}`);
    fixture.host = await waitForStatus('online', 30_000);
    return fixture;
  }
  buildAgent();
  const { token } = (await api.post<EnrollmentTokenResponse>('/agents/enrollment-tokens')).body;
  const agent = (fixture.agent = spawnAgent({ ...agentEnv, BERTH_AGENT_TOKEN: token }));
  fixture.host = await Promise.race([waitForStatus('online', 30_000), exitedEarly(agent)]);
  return fixture;
}
