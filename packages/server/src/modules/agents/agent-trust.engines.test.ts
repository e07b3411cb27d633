import { randomUUID } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  AGENT_CAPABILITIES_HEADER,
  type Container,
  type ContainerLogsResponse,
  type EnrollmentTokenResponse,
  type Host,
} from '@berth/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  buildAgent,
  exitedEarly,
  spawnAgent,
  type AgentProcess,
} from '../../test/agent-process.js';
import { apiClient } from '../../test/api.js';
import { dockerCli, readRig, rigEngine } from '../../test/rig.js';
import { buildTestApp, signedInCookie, type TestApp } from '../../test/test-app.js';
import { tlsTerminator, type TlsTerminator } from '../../test/tls-terminator.js';
import { waitFor } from '../../test/wait.js';

const plain = () => rigEngine('plain');
const READ_ONLY = 'This agent is read-only: actions are refused';

/**
 * What an agent trusts and what a read-only one lets through, with real processes: Berth
 * behind a loopback TLS terminator whose certificate a CA made for this run signed (as an
 * operator's own CA would), and a read-only agent on the rig's plain engine.
 */
describe('an agent behind TLS, read-only', () => {
  let t: TestApp;
  let api: ReturnType<typeof apiClient>;
  let base: string;
  let tls: TlsTerminator;
  let token: string;
  let agent: AgentProcess | undefined;
  const dataDir = mkdtempSync(join(tmpdir(), 'berth-agent-'));
  const name = `trust-${randomUUID().slice(0, 8)}`;
  const marker = `berth-trust-${randomUUID().slice(0, 8)}`;
  const common = () => ({
    BERTH_AGENT_DATA_DIR: dataDir,
    BERTH_AGENT_DOCKER_SOCKET: plain().socket.replace(/^unix:\/\//, ''),
    BERTH_AGENT_NAME: name,
  });
  const secret = () => readFileSync(join(dataDir, 'secret'), 'utf8');
  const agentHost = () =>
    waitFor('the agent host online', async () =>
      (await api.get<Host[]>('/hosts')).body.find((h) => h.name === name && h.status === 'online'),
    );
  /** Nothing the agent logged holds its token or its secret. */
  const expectNoCredentials = (lines: string[]) => {
    const text = lines.join('\n');
    expect(text).not.toContain(token);
    if (existsSync(join(dataDir, 'secret'))) expect(text).not.toContain(secret());
  };

  beforeAll(async () => {
    buildAgent();
    t = await buildTestApp();
    await t.app.listen({ host: '127.0.0.1', port: 0 });
    const address = t.app.server.address();
    if (address === null || typeof address === 'string') throw new Error('not listening');
    base = `http://127.0.0.1:${address.port}`;
    tls = await tlsTerminator(base);
    api = apiClient(t.app, await signedInCookie(t.app));
    token = (await api.post<EnrollmentTokenResponse>('/agents/enrollment-tokens')).body.token;
    dockerCli(plain(), [
      'run',
      '-d',
      '--init',
      '--name',
      marker,
      '--label',
      'berth-test=trust',
      readRig().images.busybox,
      'sh',
      '-c',
      `echo ${marker}-says-hello; sleep 3600`,
    ]);
  }, 180_000);

  afterAll(async () => {
    agent?.child.kill('SIGKILL');
    dockerCli(plain(), ['rm', '-f', marker]);
    await tls.close();
    await t.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('refuses an http:// BERTH_URL without BERTH_AGENT_INSECURE, in one line', async () => {
    const refused = spawnAgent({
      ...common(),
      BERTH_URL: base,
      BERTH_AGENT_INSECURE: '',
      BERTH_AGENT_TOKEN: token,
    });
    expect(await refused.exited).toBe(1);
    const lines = refused.lines();
    expect(lines).toHaveLength(1);
    expect(JSON.parse(lines[0] ?? '{}')).toMatchObject({
      level: 'error',
      msg: expect.stringMatching(
        /^BERTH_URL is http:\/\/127\.0\.0\.1:\d+: .*BERTH_AGENT_INSECURE=1/,
      ),
    });
    expectNoCredentials(lines);
  });

  it("refuses Berth's certificate without the CA file, before the token leaves", async () => {
    const refused = spawnAgent({ ...common(), BERTH_URL: tls.url, BERTH_AGENT_TOKEN: token });
    expect(await refused.exited).toBe(1);
    const lines = refused.lines();
    expect(lines.join('\n')).toContain(
      "Berth's TLS certificate is not trusted (UNABLE_TO_VERIFY_LEAF_SIGNATURE): give the CA that signed it in BERTH_AGENT_CA_FILE",
    );
    expectNoCredentials(lines);
  });

  it('with the CA file, enrolls and connects through TLS and announces read-only', async () => {
    // The same token: neither refusal above used it.
    agent = spawnAgent({
      ...common(),
      BERTH_URL: tls.url,
      BERTH_AGENT_CA_FILE: tls.caFile,
      BERTH_AGENT_READ_ONLY: '1',
      BERTH_AGENT_TOKEN: token,
    });
    const host = await Promise.race([agentHost(), exitedEarly(agent)]);
    const listed = await waitFor('the marker listed', async () =>
      (await api.get<Container[]>('/containers')).body.find(
        (c) => c.host_id === host.id && c.name === marker,
      ),
    );
    expect(listed.state).toBe('running');
    const announced = tls.upgrades.at(-1)?.[AGENT_CAPABILITIES_HEADER];
    expect(String(announced).split(',')).toContain('read-only');
    const lines = agent.lines();
    expect(lines.join('\n')).toContain('(read-only: actions are refused)');
    expect(lines.join('\n')).not.toContain('without TLS');
    expectNoCredentials(lines);
  });

  it("reads logs through Berth's API; a stop answers 403 with the agent's words, the container runs on", async () => {
    const host = await agentHost();
    const id = dockerCli(plain(), ['inspect', '-f', '{{.Id}}', marker]).trim().slice(0, 12);
    const logs = await api.get<ContainerLogsResponse>(`/hosts/${host.id}/containers/${id}/logs`);
    expect(logs.status).toBe(200);
    expect(JSON.stringify(logs.body.logs)).toContain(`${marker}-says-hello`);
    const stop = await api.post<{ detail: string }>(`/hosts/${host.id}/containers/${id}/stop`);
    expect(stop.status).toBe(403);
    expect(stop.body.detail).toBe(READ_ONLY);
    expect(dockerCli(plain(), ['inspect', '-f', '{{.State.Running}}', marker]).trim()).toBe('true');
  });

  it('an enrolled agent without the CA file is refused at each connect, with the reason', async () => {
    const running = agent;
    if (running === undefined) throw new Error('no agent running');
    running.child.kill('SIGTERM');
    expect(await running.exited).toBe(0);
    agent = spawnAgent({ ...common(), BERTH_URL: tls.url });
    const refused = agent;
    await Promise.race([
      waitFor(
        'two refused connects',
        () =>
          refused.lines().filter((l) => l.includes("Berth's TLS certificate is not trusted"))
            .length >= 2,
      ),
      exitedEarly(refused),
    ]);
    expectNoCredentials(refused.lines());
    refused.child.kill('SIGTERM');
    expect(await refused.exited).toBe(0);
  });

  it('connects over http:// with BERTH_AGENT_INSECURE=1, warning at each connect', async () => {
    agent = spawnAgent({ ...common(), BERTH_URL: base, BERTH_AGENT_INSECURE: '1' });
    const running = agent;
    await Promise.race([agentHost(), exitedEarly(running)]);
    await waitFor('the warning', () =>
      running
        .lines()
        .some(
          (l) => (JSON.parse(l) as { level: string }).level === 'warn' && l.includes('without TLS'),
        ),
    );
    expectNoCredentials(running.lines());
  });
});
