import { randomBytes } from 'node:crypto';
import type {
  Alert,
  AlertListResponse,
  AlertRule,
  AlertStats,
  ExecuteUpdateResponse,
  Host,
  NotificationChannel,
  UpdateStatus,
} from '@berth/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiClient } from '../../test/api.js';
import { messagesAbout } from '../../test/alert-matrix.js';
import { httpReceiver, type HttpReceiver } from '../../test/notification-receivers.js';
import { dockerCli, readRig, rigEngine } from '../../test/rig.js';
import { listedContainer, pushTagged } from '../../test/rig-images.js';
import { buildTestApp, signedInCookie, type TestApp } from '../../test/test-app.js';
import { waitFor } from '../../test/wait.js';

// update_completed and update_failed report a moment: with auto_resolve they clear after the
// rule's clear duration, as the Rule Summary says, also across a restart of Berth; they stop
// counting as open alerts (the dashboard tile) and send no recovery message. A rule that
// clears manually keeps its alert.
const engine = rigEngine('plain');
const rand = randomBytes(3).toString('hex');
const repo = `${readRig().registry}/berth-test/ua-${rand}`;
const badRepo = `${readRig().registry}/berth-test/ua-bad-${rand}`;
const made: string[] = [];
const images: string[] = [];
let t: TestApp;
let cookie: string;
let api: ReturnType<typeof apiClient>;
let rx: HttpReceiver;
let host: Host;
let channel: NotificationChannel;
const cli = (...args: string[]) => dockerCli(engine, args);

/** Pushes busybox as repo:tag and remembers it for the clean-up. */
async function push(repository: string, tag: string, changes: string[] = []) {
  await pushTagged(cli, repository, tag, changes);
  images.push(`${repository}:${tag}`);
}

async function update(image: string): Promise<{ name: string; res: ExecuteUpdateResponse }> {
  const name = `berth-ua-${randomBytes(4).toString('hex')}`;
  made.push(name);
  cli(
    'run',
    '-d',
    '--name',
    name,
    image,
    'sh',
    '-c',
    "trap 'exit 0' TERM; while :; do sleep 1; done",
  );
  const c = await listedContainer(api, host.id, name);
  const at = `/hosts/${c.host_id}/containers/${c.id}`;
  await api.put<UpdateStatus>(`${at}/auto-update-config`, { floating_tag_mode: 'patch' });
  expect((await api.post<UpdateStatus>(`${at}/check-update`)).body.update_available).toBe(true);
  return { name, res: (await api.post<ExecuteUpdateResponse>(`${at}/execute-update`)).body };
}

async function addRule(body: object): Promise<AlertRule> {
  const res = await api.post<AlertRule>('/alerts/rules', {
    scope: 'container',
    severity: 'info',
    container_selector_json: { include_all: true },
    notify_channels_json: [String(channel.id)],
    ...body,
  });
  if (res.status !== 200) throw new Error(JSON.stringify(res.body));
  return res.body;
}
const alertOf = async (rule: AlertRule, name: string): Promise<Alert | undefined> =>
  (await api.get<AlertListResponse>(`/alerts/?rule_id=${rule.id}&page_size=100`)).body.alerts.find(
    (a) => a.container_name === name,
  );
const openCount = async () => (await api.get<AlertStats>('/alerts/stats/')).body.by_state.open;

beforeAll(async () => {
  rx = await httpReceiver();
  t = await buildTestApp();
  cookie = await signedInCookie(t.app);
  api = apiClient(t.app, cookie);
  host = (await api.post<Host>('/hosts', { name: `ua-${rand}`, url: engine.url })).body;
  await waitFor(
    'online',
    async () => (await api.get<Host>(`/hosts/${host.id}`)).body.status === 'online',
    60_000,
  );
  t.app.services.updates.settleMs = 1500;
  await api.put('/settings', { health_check_timeout_seconds: 20 });
  channel = (
    await api.post<NotificationChannel>('/notifications/channels', {
      name: `gotify-${rand}`,
      type: 'gotify',
      config: { server_url: rx.url, app_token: 'ua-token' },
    })
  ).body;
  await push(repo, '1.0.0');
  await push(repo, '1.0.1');
  await push(badRepo, '1.0.0');
  await push(badRepo, '1.0.1', ['HEALTHCHECK --interval=1s --timeout=1s --retries=2 CMD false']);
}, 120_000);
afterAll(async () => {
  for (const name of made) {
    const all = cli('ps', '-a', '--filter', `name=${name}`, '--format', '{{.Names}}');
    for (const n of all.split('\n').filter(Boolean)) cli('rm', '-f', n);
  }
  for (const image of images) cli('rmi', '-f', image);
  await t.close();
  await rx.close();
}, 60_000);

describe('update alerts clear as their rule says', { timeout: 120_000 }, () => {
  it('update_completed and update_failed clear after the clear duration; a manual rule keeps its alert', async () => {
    const completed = await addRule({
      name: `completed-${rand}`,
      kind: 'update_completed',
      clear_duration_seconds: 3,
    });
    const failed = await addRule({
      name: `failed-${rand}`,
      kind: 'update_failed',
      clear_duration_seconds: 3,
    });
    const manual = await addRule({
      name: `manual-${rand}`,
      kind: 'update_completed',
      auto_resolve: false,
      notify_channels_json: [],
    });

    const bad = await update(`${badRepo}:1.0.0`);
    expect(bad.res.status).toBe('failed');
    expect((await alertOf(failed, bad.name))?.state).toBe('open');
    const good = await update(`${repo}:1.0.0`);
    expect(good.res.status).toBe('success');
    expect((await alertOf(completed, good.name))?.state).toBe('open');
    expect((await alertOf(manual, good.name))?.state).toBe('open');
    expect(await openCount()).toBeGreaterThanOrEqual(2);

    const cleared = async (rule: AlertRule, name: string) =>
      (await alertOf(rule, name))?.state === 'resolved';
    await waitFor(
      'both cleared',
      async () => (await cleared(completed, good.name)) && (await cleared(failed, bad.name)),
      15_000,
    );
    expect((await alertOf(completed, good.name))?.resolved_reason).toBe(
      'Cleared automatically after 3 s',
    );
    expect((await alertOf(manual, good.name))?.state).toBe('open');
    expect(await openCount()).toBe(1); // the dashboard tile counts only the manual one
    // Each raised alert notified once; clearing is no recovery.
    expect(messagesAbout(rx, [good.name, bad.name])).toEqual({ raised: 2, recovered: 0 });
  });

  it('an update alert raised before a restart clears when its time is up', async () => {
    const rule = await addRule({
      name: `restart-${rand}`,
      kind: 'update_completed',
      clear_duration_seconds: 4,
      notify_channels_json: [],
    });
    const good = await update(`${repo}:1.0.0`);
    expect(good.res.status).toBe('success');
    expect((await alertOf(rule, good.name))?.state).toBe('open');
    await t.restart();
    api = apiClient(t.app, cookie);
    await waitFor(
      'cleared after the restart',
      async () => (await alertOf(rule, good.name))?.state === 'resolved',
      15_000,
    );
  });
});
