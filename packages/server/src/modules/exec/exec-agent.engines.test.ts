import { randomUUID } from 'node:crypto';
import { rmSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openEngine, type Engine } from '../../docker/index.js';
import { enrollAgentHost } from '../../test/agent-host.js';
import { buildAgent, type AgentProcess } from '../../test/agent-process.js';
import { apiClient } from '../../test/api.js';
import { openExecClient } from '../../test/exec-client.js';
import { listenOnLoopback } from '../../test/listen.js';
import { dockerCli, endpointOf, rigEngine, runBusybox } from '../../test/rig.js';
import { buildTestApp, signedInCookie, type TestApp } from '../../test/test-app.js';
import { waitFor } from '../../test/wait.js';
import { runningExecs } from './exec-count.js';

const plain = () => rigEngine('plain');

/**
 * A container shell on an agent host: the agent is a process of its own on the rig's plain
 * engine, and the exec's hijacked stream runs through its tunnel. A read-only agent refuses.
 */
describe('container shells through an agent', () => {
  let t: TestApp;
  let base: string;
  let cookie: string;
  let api: ReturnType<typeof apiClient>;
  let engine: Engine;
  const tag = randomUUID().slice(0, 8);
  const name = `berth-exec-agent-${tag}`;
  let containerId: string;
  const agents: AgentProcess[] = [];
  const dirs: string[] = [];

  /** Enrolls an agent process on the plain engine and waits for its host online. */
  const agentHost = async (hostName: string, env: Record<string, string> = {}) => {
    const { host, agent, dataDir } = await enrollAgentHost(api, base, hostName, env);
    agents.push(agent);
    dirs.push(dataDir);
    await waitFor('the container listed', () =>
      t.app.services.monitor.container(host.id, containerId),
    );
    return host;
  };

  beforeAll(async () => {
    buildAgent();
    containerId = runBusybox(plain(), name, { options: ['--label', 'berth-test=exec-agent'] });
    engine = openEngine(endpointOf(plain()), { timeoutMs: 10_000 });
    t = await buildTestApp();
    base = await listenOnLoopback(t.app);
    cookie = await signedInCookie(t.app);
    api = apiClient(t.app, cookie);
  }, 180_000);

  afterAll(async () => {
    for (const agent of agents) agent.child.kill('SIGKILL');
    await t.close();
    dockerCli(plain(), ['rm', '-f', name]);
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  });

  it('runs a shell through the tunnel and leaves no process after a dropped socket', async () => {
    const host = await agentHost(`exec-agent-${tag}`);
    const shell = await openExecClient(base, cookie, host.id, containerId);
    shell.send({ type: 'start', command: '/bin/sh', user: '', cols: 100, rows: 30 });
    await shell.waitMessage('started');
    shell.type('stty size; echo "via=$((6*7))"\r');
    await shell.waitOutput('30 100');
    await shell.waitOutput('via=42');
    shell.type(`sleep 5151\r`);
    await waitFor('the sleep to run', () =>
      dockerCli(plain(), ['top', name]).includes('sleep 5151') ? true : undefined,
    );
    shell.socket.terminate();
    await waitFor(
      'no exec left running',
      async () => ((await runningExecs(engine, containerId)) === 0 ? true : undefined),
      15_000,
    );
    expect(dockerCli(plain(), ['top', name])).not.toContain('sleep 5151');
  }, 60_000);

  it('is refused by a read-only agent, in words', async () => {
    const host = await agentHost(`exec-ro-${tag}`, { BERTH_AGENT_READ_ONLY: '1' });
    const shell = await openExecClient(base, cookie, host.id, containerId);
    shell.send({ type: 'start', command: '/bin/sh', user: '', cols: 80, rows: 24 });
    expect((await shell.waitMessage('error')).detail).toBe(
      `exec-ro-${tag}: This agent is read-only: actions are refused`,
    );
    await shell.closed;
    expect(await runningExecs(engine, containerId)).toBe(0);
  }, 60_000);
});
