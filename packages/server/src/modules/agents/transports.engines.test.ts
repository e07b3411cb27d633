import { randomBytes } from 'node:crypto';
import {
  containerKey,
  type AlertListResponse,
  type AlertRule,
  type BatchJob,
  type Container,
  type ContainerLogsResponse,
  type EventsResponse,
  type ExecuteUpdateResponse,
  type UpdateStatus,
} from '@berth/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAuthRegistry } from '../../test/auth-registry.js';
import { openLiveClient } from '../../test/live-client.js';
import { dockerCli, readRig, rigEngine } from '../../test/rig.js';
import { listedContainer, pushTagged } from '../../test/rig-images.js';
import { openTransportHost, TRANSPORTS, type TransportHost } from '../../test/transports.js';
import { waitFor } from '../../test/wait.js';

// The core paths once per transport, against the rig's plain engine: straight over TCP, and
// through a real agent process's tunnel. Nothing below knows which one it runs on.
type Registry = Awaited<ReturnType<typeof startAuthRegistry>>;
let registry: Registry | undefined;
const made: string[] = [];
const cli = (args: string[]) => dockerCli(rigEngine('plain'), args);

/** A busybox container on the plain engine that stops at once on TERM. */
function run(script: string, image = readRig().images.busybox): string {
  const name = `berth-tr-${randomBytes(4).toString('hex')}`;
  cli(['run', '-d', '--name', name, image, 'sh', '-c', `trap 'exit 0' TERM; ${script}`]);
  made.push(name);
  return name;
}
// Prints `first`, then `second` once /tmp/go appears; a light loop, for its CPU to be read.
const TALKER =
  'echo first; while :; do [ -f /tmp/go ] && { echo second; rm /tmp/go; }; sleep 0.2; done';
// Runs until /tmp/crash appears, then exits 3: a crash, not a stop or a kill.
const CRASHER = 'while [ ! -f /tmp/crash ]; do sleep 0.2; done; exit 3';

/**
 * A basic-auth registry holding `repo` 1.0.0 and 1.0.1, of which the engine keeps only 1.0.0:
 * an update must pull through the registry with Berth's credentials. Made while the first
 * tests run (pushes take a while on a busy machine), awaited by the update test.
 */
async function prepareRegistry(): Promise<{ registry: Registry; repo: string }> {
  registry = await startAuthRegistry(rigEngine('plain'));
  const r = registry;
  await r.cli('login', '-u', r.user, '-p', r.password, r.registry);
  const repo = `${r.registry}/priv/app-${randomBytes(3).toString('hex')}`;
  for (const v of ['1.0.0', '1.0.1']) await pushTagged(r.cli, repo, v);
  await r.cli('rmi', `${repo}:1.0.1`);
  return { registry: r, repo };
}
let prepared: ReturnType<typeof prepareRegistry>;

beforeAll(() => {
  prepared = prepareRegistry();
  prepared.catch(() => undefined); // the update test reports it
});

afterAll(async () => {
  for (const name of made) {
    try {
      cli(['rm', '-f', name]);
    } catch {
      // gone
    }
  }
  const { repo } = await prepared.catch(() => ({ repo: null }));
  if (repo !== null) cli(['rmi', '-f', `${repo}:1.0.0`, `${repo}:1.0.1`]);
  await registry?.close();
}, 60_000);

describe.each(TRANSPORTS)('the core paths %s', { timeout: 60_000 }, (transport) => {
  let h: TransportHost;
  let talker: Container;
  let crasher: Container;
  const api = () => h.api;
  const listed = async (name: string) =>
    (await api().get<Container[]>(`/containers?host_id=${h.host.id}`)).body.find(
      (c) => c.name === name,
    );
  const act = (c: Container, action: string) =>
    api().post(`/hosts/${h.host.id}/containers/${c.id}/${action}`);
  const eventsOf = async (c: Container) =>
    (await api().get<EventsResponse>(`/hosts/${h.host.id}/events/container/${c.id}?limit=100`)).body
      .events;
  /** A rule of `kind` on this host only (both transports' hosts see the same engine). */
  const addRule = async (kind: string, body: object) => {
    const res = await api().post<AlertRule>('/alerts/rules', {
      name: `${kind}-${transport}-${randomBytes(3).toString('hex')}`,
      kind,
      severity: 'error',
      host_selector_json: { include: [h.host.id] },
      ...body,
    });
    expect(res.status).toBe(200);
    return res.body;
  };
  const firstAlert = (rule: AlertRule, timeoutMs: number) =>
    waitFor(
      `an alert of ${rule.name}`,
      async () =>
        (await api().get<AlertListResponse>(`/alerts/?rule_id=${rule.id}&page_size=10`)).body
          .alerts[0],
      timeoutMs,
      100,
    );
  const eventTypes = async (c: Container) => (await eventsOf(c)).map((e) => e.event_type);

  beforeAll(async () => {
    h = await openTransportHost(transport);
    const names = [run(TALKER), run(CRASHER)];
    const running = (name: string) =>
      waitFor(`${name} running`, async () => {
        const c = await listed(name);
        return c?.state === 'running' && c;
      });
    [talker, crasher] = (await Promise.all(names.map(running))) as [Container, Container];
  }, 120_000);
  afterAll(() => h.close());

  it('lists and inspects the containers of the engine', () => {
    expect(h.host.url).toMatch(transport === 'agent' ? /^agent:\/\// : /^tcp:\/\//);
    const [inspected] = JSON.parse(cli(['inspect', talker.name])) as [
      { Id: string; State: { StartedAt: string } },
    ];
    expect(inspected.Id.startsWith(talker.id)).toBe(true);
    expect(talker).toMatchObject({ state: 'running', image: readRig().images.busybox });
    expect(Date.parse(talker.started_at ?? '')).toBe(Date.parse(inspected.State.StartedAt));
  });

  it('stops, starts and restarts through the API', async () => {
    const state = () => cli(['inspect', '-f', '{{.State.Status}}', talker.name]);
    expect((await act(talker, 'stop')).status).toBe(200);
    expect(state()).toBe('exited');
    expect((await act(talker, 'start')).status).toBe(200);
    expect(state()).toBe('running');
    const before = cli(['inspect', '-f', '{{.State.StartedAt}}', talker.name]);
    expect((await act(talker, 'restart')).status).toBe(200);
    expect(cli(['inspect', '-f', '{{.State.StartedAt}}', talker.name])).not.toBe(before);
    await waitFor(
      'the restart in the list',
      async () => (await listed(talker.name))?.state === 'running',
    );
  });

  it('follows a log as the log viewer does: a new line shows on the next read', async () => {
    const read = async () =>
      (
        await api().get<ContainerLogsResponse>(
          `/hosts/${h.host.id}/containers/${talker.id}/logs?tail=100`,
        )
      ).body.logs.map((l) => l.log);
    expect(await read()).toContain('first');
    cli(['exec', talker.name, 'touch', '/tmp/go']);
    // The viewer reads every 2 s; a faster reader is answered 429.
    await waitFor('the new line', async () => (await read()).includes('second'), 10_000, 500);
  });

  it('puts the engine events of a change made outside Berth in the event log', async () => {
    cli(['pause', talker.name]);
    cli(['unpause', talker.name]);
    await waitFor('pause and unpause in the event log', async () => {
      const types = await eventTypes(talker);
      return types.includes('paused') && types.includes('unpaused');
    });
  });

  it('reads CPU and memory of a running container', async () => {
    // A watching browser puts the monitor on its full 2 s cadence.
    const live = await openLiveClient(h.t.app, h.cookie);
    try {
      const read = await waitFor('stats in the list', async () => {
        const c = await listed(talker.name);
        return c?.cpu_percent !== null && (c?.memory_usage ?? 0) > 0 ? c : undefined;
      });
      expect(read.cpu_percent).toBeGreaterThanOrEqual(0);
    } finally {
      live.close();
    }
  });

  it('restarts containers in a batch job', async () => {
    const started = new Map(
      [talker, crasher].map((c) => [
        c.name,
        cli(['inspect', '-f', '{{.State.StartedAt}}', c.name]),
      ]),
    );
    const created = await api().post<{ job_id: string }>('/batch', {
      scope: 'container',
      action: 'restart',
      ids: [talker, crasher].map((c) => containerKey(h.host.id, c.id)),
    });
    expect(created.status).toBe(200);
    const job = await waitFor('the job done', async () => {
      const j = (await api().get<BatchJob>(`/batch/${created.body.job_id}`)).body;
      return j.status === 'completed' || j.status === 'failed' ? j : undefined;
    });
    expect(job).toMatchObject({ status: 'completed', success_items: 2, error_items: 0 });
    for (const [name, before] of started)
      expect(cli(['inspect', '-f', '{{.State.StartedAt}}', name])).not.toBe(before);
  });

  it('raises container_stopped when a container crashes', async () => {
    const rule = await addRule('container_stopped', {
      scope: 'container',
      container_selector_json: { include: [crasher.name] },
    });
    await waitFor(
      'the crasher running again',
      async () => (await listed(crasher.name))?.state === 'running',
    );
    cli(['exec', crasher.name, 'touch', '/tmp/crash']);
    const alert = await firstAlert(rule, 10_000);
    expect(alert).toMatchObject({ kind: 'container_stopped', host_id: h.host.id, state: 'open' });
    expect(alert.container_name).toBe(crasher.name);
    await waitFor('the crash in the event log', async () =>
      (await eventsOf(crasher)).some((e) => e.event_type === 'died' && e.message === 'Exit code 3'),
    );
  });

  it('updates an image through a registry with credentials, pulled by the engine', async () => {
    // Both transports update from one repository: the second finds 1.0.1 on the engine
    // already, but a pull still asks the registry for the tag, with the credentials.
    const { registry, repo } = await prepared;
    const name = run('while :; do sleep 1; done', `${repo}:1.0.0`);
    const c = await listedContainer(api(), h.host.id, name);
    const base = `/hosts/${h.host.id}/containers/${c.id}`;
    // The new container proves itself by running this long (10 s by default).
    h.t.app.services.updates.settleMs = 1000;
    await api().put(`${base}/auto-update-config`, { floating_tag_mode: 'patch' });
    const cred = await api().post('/registry-credentials', {
      registry_url: `http://${registry.registry}`,
      username: registry.user,
      password: registry.password,
    });
    expect(cred.status).toBe(200);
    const status = (await api().post<UpdateStatus>(`${base}/check-update`)).body;
    expect(status).toMatchObject({ update_available: true, latest_image: `${repo}:1.0.1` });
    const res = await api().post<ExecuteUpdateResponse>(`${base}/execute-update`);
    expect(res.body).toMatchObject({ status: 'success' });
    expect(cli(['inspect', '-f', '{{.Config.Image}} {{.State.Running}}', name])).toBe(
      `${repo}:1.0.1 true`,
    );
  });

  it('auto-restarts a container killed outside Berth (docker kill)', async () => {
    // The shortest delay the settings allow.
    expect((await api().put('/settings', { retry_delay: 5, max_retries: 2 })).status).toBe(200);
    const name = run('while :; do sleep 1; done');
    const c = await listedContainer(api(), h.host.id, name);
    const on = await api().post(`/hosts/${h.host.id}/containers/${c.id}/auto-restart`, {
      enabled: true,
    });
    expect(on.status).toBe(200);
    const startedAt = cli(['inspect', '-f', '{{.State.StartedAt}}', name]);
    cli(['kill', name]);
    // Berth starts it again after retry_delay, through the host's engine connection.
    await waitFor(
      'restarted by Berth',
      async () => {
        const now = cli(['inspect', '-f', '{{.State.Running}} {{.State.StartedAt}}', name]);
        return (
          (await listed(name))?.state === 'running' &&
          now.startsWith('true ') &&
          now !== `true ${startedAt}`
        );
      },
      20_000,
      250,
    );
    const restarted = await waitFor('the restart in the event log', async () =>
      (await eventsOf(c)).find((e) => e.event_type === 'auto_restart'),
    );
    expect(restarted).toMatchObject({
      title: `Container auto-restarted: ${name}`,
      triggered_by: 'system',
    });
  });

  it('raises host_down within 10 s of losing the host', async () => {
    const rule = await addRule('host_down', { scope: 'host' });
    const at = Date.now();
    // The agent process dies; a direct host's engine goes away (its port closes).
    if (transport === 'agent') h.agent?.child.kill('SIGKILL');
    else await h.proxy.close();
    const alert = await firstAlert(rule, 12_000);
    expect(alert).toMatchObject({ kind: 'host_down', scope_id: h.host.id });
    expect(Date.parse(alert.first_seen) - at).toBeLessThan(10_000);
  });
});
