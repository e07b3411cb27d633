import { randomBytes } from 'node:crypto';
import type { AlertRule, Host, NotificationChannel } from '@berth/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiClient } from '../../test/api.js';
import { containerStoppedRule } from '../../test/alert-rules.js';
import { openLiveClient } from '../../test/live-client.js';
import { dockerCli, readRig, rigEngine } from '../../test/rig.js';
import { buildTestApp, signedInCookie, type TestApp } from '../../test/test-app.js';
import { waitFor } from '../../test/wait.js';
import {
  httpReceiver,
  smtpReceiver,
  type HttpReceiver,
  type SmtpReceiver,
} from '../../test/notification-receivers.js';

let t: TestApp;
let api: ReturnType<typeof apiClient>;
let live: Awaited<ReturnType<typeof openLiveClient>>;
let host: Host;
let rx: HttpReceiver;
let mail: SmtpReceiver;
let telegram: NotificationChannel;
let email: NotificationChannel;
const engine = rigEngine('plain');
const tag = randomBytes(3).toString('hex');
const made: string[] = [];
const TOKEN = '987654321:berth-e2e-token';
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function run(): string {
  const name = `berth-nt-${randomBytes(4).toString('hex')}`;
  dockerCli(engine, [
    'run',
    '-d',
    '--name',
    name,
    readRig().images.busybox,
    'sh',
    '-c',
    "trap 'exit 0' TERM; while :; do sleep 1; done",
  ]);
  made.push(name);
  return name;
}
const listed = (name: string) => async () =>
  (await api.get<{ name: string; state: string }[]>(`/containers?host_id=${host.id}`)).body.some(
    (c) => c.name === name && c.state === 'running',
  );
const telegramTexts = (name: string) =>
  rx.requests
    .filter((r) => r.url === `/bot${TOKEN}/sendMessage`)
    .map((r) => (JSON.parse(r.body) as { text: string }).text)
    .filter((text) => text.includes(name));
const mailsAbout = (name: string) => mail.mails.filter((m) => m.raw.includes(name));

async function rule(name: string, containers: string[]): Promise<AlertRule> {
  const res = await api.post<AlertRule>(
    '/alerts/rules',
    containerStoppedRule(name, containers, [telegram.id, email.id]),
  );
  if (res.status !== 200) throw new Error(JSON.stringify(res.body));
  return res.body;
}

beforeAll(async () => {
  rx = await httpReceiver();
  mail = await smtpReceiver();
  t = await buildTestApp({
    BERTH_TELEGRAM_API_URL: rx.url,
    BERTH_NOTIFICATION_RETRY_BASE_MS: '100',
  });
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  const cookie = await signedInCookie(t.app);
  api = apiClient(t.app, cookie);
  live = await openLiveClient(t.app, cookie);
  host = (await api.post<Host>('/hosts', { name: `nt-${tag}`, url: engine.url })).body;
  await waitFor(
    'host online',
    async () => (await api.get<Host>(`/hosts/${host.id}`)).body.status === 'online',
  );
  telegram = (
    await api.post<NotificationChannel>('/notifications/channels', {
      name: `tg-${tag}`,
      type: 'telegram',
      config: { bot_token: TOKEN, chat_id: '1001' },
    })
  ).body;
  email = (
    await api.post<NotificationChannel>('/notifications/channels', {
      name: `mail-${tag}`,
      type: 'smtp',
      config: {
        smtp_host: '127.0.0.1',
        smtp_port: mail.port,
        smtp_user: mail.credentials.user,
        smtp_password: mail.credentials.pass,
        from_email: 'berth@example.com',
        to_email: 'ops@example.com',
        use_tls: true,
        tls_verify: false,
      },
    })
  ).body;
});
afterAll(async () => {
  live.close();
  for (const name of made) {
    try {
      dockerCli(engine, ['rm', '-f', name]);
    } catch {
      // already gone
    }
  }
  await t.close();
  await rx.close();
  await mail.close();
});

describe('notifications end to end', { timeout: 90_000 }, () => {
  it('docker kill: one Telegram message and one e-mail within 2 s naming host and container; docker start: one recovery each', async () => {
    const name = run();
    await waitFor('running', listed(name));
    await rule(`nt-stopped-${tag}`, [name]);
    const at = Date.now();
    dockerCli(engine, ['kill', name]);
    await waitFor(
      'both delivered',
      () => telegramTexts(name).length >= 1 && mailsAbout(name).length >= 1,
      5000,
    );
    expect(Date.now() - at).toBeLessThan(2000);
    const [text] = telegramTexts(name);
    expect(text).toContain(host.name);
    expect(text).toContain('<b>CRITICAL: Container stopped</b>');
    expect(mailsAbout(name)[0]?.raw).toContain(host.name);

    dockerCli(engine, ['start', name]);
    await waitFor(
      'recovery',
      () => telegramTexts(name).length >= 2 && mailsAbout(name).length >= 2,
      10_000,
    );
    await sleep(1500);
    const texts = telegramTexts(name);
    expect(texts).toHaveLength(2);
    expect(texts[1]).toContain('Resolved: Container stopped');
    expect(texts[1]).toMatch(/Lasted:<\/b> \d+s/);
    expect(mailsAbout(name)).toHaveLength(2);
  });

  it('a blackout holds messages; its end sends one summary per channel of what is still open', async () => {
    const stays = run();
    const recovers = run();
    await waitFor('running', async () => (await listed(stays)()) && (await listed(recovers)()));
    await rule(`nt-blackout-${tag}`, [stays, recovers]);
    const windowAll = {
      name: 'Maintenance',
      enabled: true,
      start_time: '00:00',
      end_time: '00:00',
      days: [0, 1, 2, 3, 4, 5, 6],
    };
    expect((await api.put('/settings', { blackout_windows: [windowAll] })).status).toBe(200);
    await waitFor('blackout live', () =>
      live.messages.some(
        (m) => m.message.type === 'blackout_status_changed' && m.message.data.is_blackout,
      ),
    );
    const tgBefore = rx.requests.length;
    const mailBefore = mail.mails.length;
    dockerCli(engine, ['kill', stays]);
    dockerCli(engine, ['kill', recovers]);
    await waitFor('two alerts', async () => {
      const res = await api.get<{ alerts: { container_name: string }[] }>(
        '/alerts/?state=open&page_size=100',
      );
      const names = res.body.alerts.map((a) => a.container_name);
      return names.includes(stays) && names.includes(recovers);
    });
    dockerCli(engine, ['start', recovers]);
    await waitFor('recovered resolved', async () => {
      const res = await api.get<{ alerts: { container_name: string }[] }>(
        '/alerts/?state=resolved&page_size=100',
      );
      return res.body.alerts.some((a) => a.container_name === recovers);
    });
    await sleep(1000);
    expect(rx.requests.length).toBe(tgBefore);
    expect(mail.mails.length).toBe(mailBefore);

    expect((await api.put('/settings', { blackout_windows: [] })).status).toBe(200);
    await waitFor(
      'summaries',
      () => rx.requests.length > tgBefore && mail.mails.length > mailBefore,
      5000,
    );
    await sleep(1000);
    const summaries = rx.requests.slice(tgBefore);
    expect(summaries).toHaveLength(1);
    const text = (JSON.parse(summaries[0]?.body ?? '{}') as { text: string }).text;
    expect(text).toContain('Blackout window ended: Maintenance');
    expect(text).toContain(stays);
    expect(text).not.toContain(recovers);
    expect(mail.mails.slice(mailBefore)).toHaveLength(1);
    expect(
      live.messages.some(
        (m) => m.message.type === 'blackout_status_changed' && !m.message.data.is_blackout,
      ),
    ).toBe(true);
  });
});
