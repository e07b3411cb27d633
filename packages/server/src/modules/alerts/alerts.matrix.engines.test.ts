import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { AlertRule, Host, NotificationChannel } from '@berth/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  matrixTable,
  observer,
  type MatrixRow,
  type Observe,
  type Outcome,
  type Subject,
} from '../../test/alert-matrix.js';
import { apiClient } from '../../test/api.js';
import { loopbackHttpReceiver } from '../../test/loopback.js';
import { httpReceiver, type HttpReceiver } from '../../test/notification-receivers.js';
import { readRig, rigControl, rigEngine } from '../../test/rig.js';
import { buildTestApp, signedInCookie, type TestApp } from '../../test/test-app.js';
import { waitFor } from '../../test/wait.js';

// The alert matrix: every way a container or a host can stop, against the container_stopped
// and host_down rules a new user sets up, with a Gotify channel on a loopback receiver that
// counts the messages. Alerts say what happened: a stop or restart someone asked for (Berth,
// the CLI, a health check) is none, also for an image that ignores SIGTERM; a job that
// exits 0 is none unless it should run; every alert that clears by itself says so.
let t: TestApp;
let api: ReturnType<typeof apiClient>;
let rx: HttpReceiver;
let failing: Awaited<ReturnType<typeof loopbackHttpReceiver>>;
let plain: Host;
const rules: Record<'stopped' | 'down', AlertRule> = {} as never;
const engine = rigEngine('plain');
const images = readRig().images;
const tag = randomBytes(3).toString('hex');
const made: string[] = [];
const rows: MatrixRow[] = [];
const exec = promisify(execFile);

/** The docker CLI against the plain engine, without blocking the app that runs beside it. */
const docker = async (...args: string[]) =>
  (await exec('docker', ['-H', engine.socket, ...args], { encoding: 'utf8' })).stdout.trim();
const WAIT_FOR_FLAG = 'while [ ! -f /flag/go ]; do sleep 0.1; done';

async function run(label: string, args: string[]): Promise<{ name: string; id: string }> {
  const name = `berth-mx-${randomBytes(3).toString('hex')}-${label}`;
  const id = (await docker('run', '-d', '--name', name, ...args)).slice(0, 12);
  made.push(name);
  await waitFor(
    'running',
    () => t.app.services.monitor.containerByName(plain.id, name)?.state === 'running',
  );
  return { name, id };
}
const httpd = (label: string) => run(label, ['--stop-timeout', '2', images.httpd]);
/** Waits for /flag/go (a tmpfs: empty again after a restart), then exits with `code`. */
const job = (label: string, code: number) =>
  run(label, ['--tmpfs', '/flag', images.busybox, 'sh', '-c', `${WAIT_FOR_FLAG}; exit ${code}`]);
const release = (name: string) => docker('exec', '-d', name, 'touch', '/flag/go');
const shouldRun = async (id: string) =>
  expect(
    (
      await api.post(`/hosts/${plain.id}/containers/${id}/desired-state`, {
        desired_state: 'should_run',
      })
    ).status,
  ).toBe(200);
const action = async (id: string, what: 'stop' | 'restart') =>
  expect(await api.post(`/hosts/${plain.id}/containers/${id}/${what}`)).toMatchObject({
    status: 200,
  });

let observe: Observe;

const container = (name: string): Subject => ({
  rule: rules.stopped,
  titles: [name],
  matches: (a) => a.container_name === name,
});
const hostSubject = (host: Host): Subject => ({
  rule: rules.down,
  titles: [host.name],
  matches: (a) => a.scope_id === host.id,
});
const NONE: Outcome = { alert: false, recovery: false };
const BOTH: Outcome = { alert: true, recovery: true };
const stopped = 'container_stopped' as const;

/** The container triggers; each makes its own container, so they run side by side. */
const containerTriggers: (() => Promise<void>)[] = [
  async () => {
    const c = await httpd('berth-stop');
    await observe(
      { trigger: 'stop from Berth (SIGTERM ignored)', kind: stopped, expected: NONE },
      container(c.name),
      () => action(c.id, 'stop'),
    );
  },
  async () => {
    const c = await httpd('cli-stop');
    await observe(
      { trigger: 'CLI stop (SIGTERM ignored)', kind: stopped, expected: NONE },
      container(c.name),
      () => docker('stop', c.name),
    );
  },
  async () => {
    const c = await httpd('berth-restart');
    await observe(
      { trigger: 'restart from Berth (SIGTERM ignored)', kind: stopped, expected: NONE },
      container(c.name),
      () => action(c.id, 'restart'),
    );
  },
  async () => {
    const c = await httpd('cli-restart');
    await observe(
      { trigger: 'CLI restart (SIGTERM ignored)', kind: stopped, expected: NONE },
      container(c.name),
      () => docker('restart', c.name),
    );
  },
  async () => {
    const c = await httpd('hc-restart');
    const startedAt = () => docker('inspect', '-f', '{{.State.StartedAt}}', c.name);
    const before = await startedAt();
    await observe(
      { trigger: 'health-check restart (SIGTERM ignored)', kind: stopped, expected: NONE },
      container(c.name),
      async () => {
        const saved = await api.put(`/containers/${plain.id}/${c.id}/http-health-check`, {
          enabled: true,
          url: `${failing.url}/health`,
          timeout_seconds: 5,
          check_interval_seconds: 10,
          failure_threshold: 1,
          auto_restart_on_failure: true,
          max_restart_attempts: 1,
          restart_retry_delay_seconds: 30,
        });
        expect(saved.status).toBe(200);
        await waitFor(
          'restarted by the health check',
          async () => (await startedAt()) !== before,
          70_000,
          500,
        );
      },
    );
  },
  async () => {
    const c = await httpd('run-restart');
    await shouldRun(c.id);
    await observe(
      { trigger: 'CLI restart, should_run', kind: stopped, expected: NONE },
      container(c.name),
      () => docker('restart', c.name),
    );
  },
  async () => {
    const c = await httpd('run-stop');
    await shouldRun(c.id);
    await observe(
      { trigger: 'CLI stop, should_run; started again', kind: stopped, expected: BOTH },
      container(c.name),
      () => docker('stop', c.name),
      () => docker('start', c.name),
    );
  },
  async () => {
    const c = await run('kill', [images.busybox, 'sh', '-c', WAIT_FOR_FLAG]);
    await observe(
      { trigger: 'kill (docker kill); started again', kind: stopped, expected: BOTH },
      container(c.name),
      () => docker('kill', c.name),
      () => docker('start', c.name),
    );
  },
  async () => {
    const c = await job('crash', 3);
    await observe(
      { trigger: 'crash (exit 3); then removed', kind: stopped, expected: BOTH },
      container(c.name),
      () => release(c.name),
      () => docker('rm', c.name),
    );
  },
  async () => {
    const c = await job('auto-restart', 3);
    const on = await api.post(`/hosts/${plain.id}/containers/${c.id}/auto-restart`, {
      enabled: true,
    });
    expect(on.status).toBe(200);
    // Berth's auto-restart starts it again after retry_delay (5 s): that start is no stop.
    await observe(
      { trigger: 'crash (exit 3); auto-restart starts it', kind: stopped, expected: BOTH },
      container(c.name),
      () => release(c.name),
    );
  },
  async () => {
    const c = await job('exit0', 0);
    await observe({ trigger: 'exit 0', kind: stopped, expected: NONE }, container(c.name), () =>
      release(c.name),
    );
  },
  async () => {
    const c = await job('run-exit0', 0);
    await shouldRun(c.id);
    await observe(
      { trigger: 'exit 0, should_run; started again', kind: stopped, expected: BOTH },
      container(c.name),
      () => release(c.name),
      () => docker('start', c.name),
    );
  },
  async () => {
    const c = await run('rm', [images.busybox, 'sh', '-c', WAIT_FOR_FLAG]);
    await observe(
      { trigger: 'removal (rm -f while running)', kind: stopped, expected: NONE },
      container(c.name),
      () => docker('rm', '-f', c.name),
    );
  },
  buildContainers,
];

/** `docker build` with the classic builder: each RUN step is a container that exits 0 and goes. */
async function buildContainers(): Promise<void> {
  const created = new Map<string, string>();
  const off = t.app.services.monitor.on('containerChanged', (ev) => {
    if (ev.action === 'create') created.set(ev.containerId, ev.name);
  });
  const names: string[] = [];
  const dir = mkdtempSync(join(tmpdir(), 'berth-mx-build-'));
  const image = `berth-mx-build:${tag}`;
  writeFileSync(
    join(dir, 'Dockerfile'),
    `FROM ${images.busybox}\nRUN true\nRUN echo built > /built\n`,
  );
  let ids: string[] = [];
  const subject: Subject = {
    rule: rules.stopped,
    titles: names,
    matches: (a) => a.container_name !== null && names.includes(a.container_name),
  };
  try {
    await observe(
      { trigger: 'docker build (2 RUN containers, exit 0)', kind: stopped, expected: NONE },
      subject,
      async () => {
        const out = await exec(
          'docker',
          ['-H', engine.socket, 'build', '--no-cache', '-t', image, dir],
          {
            env: { ...process.env, DOCKER_BUILDKIT: '0' },
            encoding: 'utf8',
          },
        );
        ids = [...out.stdout.matchAll(/Running in ([0-9a-f]{12})/g)].map((m) => m[1] ?? '');
        await waitFor('build containers seen', () => ids.every((id) => created.has(id)));
        names.push(...ids.map((id) => created.get(id) ?? id));
      },
    );
  } finally {
    off();
    rmSync(dir, { recursive: true, force: true });
    await docker('rmi', image).catch(() => undefined);
  }
  expect(ids).toHaveLength(2); // the build did run its steps in containers
}

/** Hosts Berth never reaches: a closed port and a socket that is not there. */
async function neverReachable(label: string, url: string): Promise<void> {
  const res = await api.post<Host>('/hosts', { name: `mx-${tag}-${label}`, url });
  expect(res.status).toBe(200);
  await observe(
    {
      trigger: `host never reachable (${label})`,
      kind: 'host_down',
      expected: { alert: true, recovery: false },
    },
    hostSubject(res.body),
    () => Promise.resolve(),
  );
}

/** The plain engine stopped (its containers with it) and started again. */
async function hostCut(): Promise<void> {
  const bystander = await run('bystander', [images.busybox, 'sh', '-c', WAIT_FOR_FLAG]);
  try {
    await observe(
      { trigger: 'host cut (engine stopped); back', kind: 'host_down', expected: BOTH },
      hostSubject(plain),
      () => exec('bash', [readRig().script, 'stop', 'plain']),
      () => exec('bash', [readRig().script, 'start', 'plain']),
    );
  } finally {
    rigControl('start', 'plain');
  }
  await waitFor(
    'plain online',
    async () => (await api.get<Host>(`/hosts/${plain.id}`)).body.status === 'online',
    60_000,
  );
  // The engine's shutdown stopped the container: a stop, not news of its own.
  await observe(
    { trigger: 'host cut: its containers stopped with it', kind: stopped, expected: NONE },
    container(bystander.name),
    () => Promise.resolve(),
  );
}

beforeAll(async () => {
  rx = await httpReceiver();
  failing = await loopbackHttpReceiver((_req, _body, res) => {
    res.writeHead(500);
    res.end('down');
  });
  t = await buildTestApp({ BERTH_NOTIFICATION_RETRY_BASE_MS: '100' });
  api = apiClient(t.app, await signedInCookie(t.app));
  observe = observer(api, rx, rows);
  expect((await api.put('/settings', { retry_delay: 5, max_retries: 1 })).status).toBe(200);
  const channel = await api.post<NotificationChannel>('/notifications/channels', {
    name: `gotify-${tag}`,
    type: 'gotify',
    config: { server_url: rx.url, app_token: 'matrix-token' },
  });
  expect(channel.status).toBe(200);
  plain = (await api.post<Host>('/hosts', { name: `mx-${tag}-plain`, url: engine.url })).body;
  const common = {
    severity: 'error',
    cooldown_seconds: 0,
    auto_resolve: true,
    notify_channels_json: [String(channel.body.id)],
  };
  const add = async (body: object) => {
    const res = await api.post<AlertRule>('/alerts/rules', { ...common, ...body });
    if (res.status !== 200) throw new Error(JSON.stringify(res.body));
    return res.body;
  };
  // As a new user sets them up: every container of the host, every host.
  rules.stopped = await add({
    name: `Container stopped ${tag}`,
    scope: 'container',
    kind: 'container_stopped',
    clear_duration_seconds: 1,
    host_selector_json: { include: [plain.id] },
  });
  rules.down = await add({
    name: `Host down ${tag}`,
    scope: 'host',
    kind: 'host_down',
    duration_seconds: 2,
    host_selector_json: { include_all: true },
  });
  await waitFor(
    'plain online',
    async () => (await api.get<Host>(`/hosts/${plain.id}`)).body.status === 'online',
    60_000,
  );
}, 90_000);
afterAll(async () => {
  await Promise.all(made.map((name) => docker('rm', '-f', name).catch(() => undefined)));
  await t.close();
  await rx.close();
  await failing.close();
});

describe('the alert matrix', () => {
  it(
    'alerts and recovery messages follow what happened, trigger by trigger',
    { timeout: 300_000 },
    async () => {
      await Promise.all([
        ...containerTriggers.map((trigger) => trigger()),
        neverReachable('closed-port', 'tcp://127.0.0.1:1'),
        neverReachable('no-socket', `unix:///tmp/berth-mx-${tag}-missing.sock`),
      ]);
      await hostCut();
      const rank = (r: MatrixRow) => `${r.kind}|${r.expected.alert ? 1 : 0}|${r.trigger}`;
      rows.sort((a, b) => rank(a).localeCompare(rank(b)));
      console.log(
        `\nThe alert matrix (one Gotify channel counting messages)\n${matrixTable(rows)}\n`,
      );
      for (const row of rows)
        expect({ trigger: row.trigger, seen: row.seen }).toEqual({
          trigger: row.trigger,
          seen: row.expected,
        });
    },
  );
});
