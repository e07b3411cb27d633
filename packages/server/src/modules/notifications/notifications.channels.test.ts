import Database from 'better-sqlite3';
import { join } from 'node:path';
import type { NotificationChannel } from '@berth/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiClient } from '../../test/api.js';
import {
  httpReceiver,
  smtpReceiver,
  type HttpReceiver,
  type SmtpReceiver,
} from '../../test/notification-receivers.js';
import { buildTestApp, signedInCookie, type TestApp } from '../../test/test-app.js';

// The channels API: validation, sealed secrets, and the request each service gets (through
// the Test button). What the outbox does with alerts: notifications.outbox.test.ts.

let t: TestApp;
let api: ReturnType<typeof apiClient>;
let rx: HttpReceiver;
let mail: SmtpReceiver;
const TOKEN = '123456789:AAbbCCddEEffGGhhIIjjKK_-';

beforeAll(async () => {
  rx = await httpReceiver();
  mail = await smtpReceiver();
  t = await buildTestApp({
    BERTH_TELEGRAM_API_URL: `${rx.url}/tg`,
    BERTH_PUSHOVER_API_URL: `${rx.url}/po`,
    BERTH_NTFY_URL: `${rx.url}/ntfy`,
    BERTH_NOTIFICATION_RETRY_BASE_MS: '60',
  });
  api = apiClient(t.app, await signedInCookie(t.app));
});
afterAll(async () => {
  await t.close();
  await rx.close();
  await mail.close();
});

const create = (body: object) => api.post<NotificationChannel>('/notifications/channels', body);
const last = () => {
  const r = rx.requests.at(-1);
  if (r === undefined) throw new Error('nothing received');
  return r;
};

describe('channel validation', () => {
  it.each([
    ['telegram', {}, 'Bot token is required'],
    ['telegram', { bot_token: TOKEN }, 'Chat ID is required'],
    ['discord', {}, 'Webhook URL is required'],
    ['slack', {}, 'Webhook URL is required'],
    ['pushover', {}, 'App token is required'],
    ['pushover', { app_token: 'a' }, 'User key is required'],
    ['gotify', {}, 'Server URL is required'],
    ['gotify', { server_url: 'https://g.example.com' }, 'App token is required'],
    ['smtp', {}, 'SMTP host is required'],
    [
      'smtp',
      { smtp_host: 'h', smtp_user: 'u', smtp_password: 'p', from_email: 'a@b.c' },
      'To email is required',
    ],
    ['ntfy', {}, 'Topic is required'],
    ['discord', { webhook_url: 'ftp://x' }, 'Webhook URL must start with http:// or https://'],
  ])('%s %j → %s', async (type, config, message) => {
    const res = await create({ name: `bad-${type}`, type, config });
    expect(res.status).toBe(400);
    expect((res.body as unknown as { detail: string }).detail).toContain(message);
  });

  it('needs a name', async () => {
    const res = await create({
      name: ' ',
      type: 'discord',
      config: { webhook_url: 'https://x.y/z' },
    });
    expect((res.body as unknown as { detail: string }).detail).toContain(
      'Channel name is required',
    );
  });
});

describe('secrets and type', () => {
  it('takes the legacy token, seals it, masks it, keeps it on a blank edit, refuses a type change', async () => {
    const res = await create({
      name: 'tg-legacy',
      type: 'telegram',
      config: { token: TOKEN, chat_id: '42' },
    });
    expect(res.status).toBe(200);
    expect(res.body.config.bot_token).toBe(`••••••${TOKEN.slice(-4)}`);
    expect(JSON.stringify(res.body)).not.toContain(TOKEN);
    const id = res.body.id;
    const raw = new Database(join(t.config.dataDir, 'berth.db'), { readonly: true });
    const row = raw.prepare('select * from notification_channels where id = ?').get(id);
    raw.close();
    expect(JSON.stringify(row)).not.toContain(TOKEN);

    const edit = await api.put<NotificationChannel>(`/notifications/channels/${id}`, {
      config: { bot_token: '', chat_id: '43' },
    });
    expect(edit.status).toBe(200);
    expect(edit.body.config.chat_id).toBe('43');
    const tested = await api.post<{ success: boolean }>(`/notifications/channels/${id}/test`, {});
    expect(tested.body.success).toBe(true);
    expect(last().url).toBe(`/tg/bot${TOKEN}/sendMessage`);

    const retype = await api.put(`/notifications/channels/${id}`, { type: 'slack' });
    expect(retype.status).toBe(400);
    expect(JSON.stringify(retype.body)).toContain('The channel type cannot be changed');
  });
});

describe('each service gets its own request', () => {
  it('telegram: sendMessage with HTML, escaping and a forum topic', async () => {
    const ch = (
      await create({
        name: 'tg',
        type: 'telegram',
        config: { bot_token: TOKEN, chat_id: '-100123/7' },
      })
    ).body;
    const res = await api.post(`/notifications/channels/${ch.id}/test`, {});
    expect(res.body).toEqual({ success: true, error: null });
    const r = last();
    expect(r.url).toBe(`/tg/bot${TOKEN}/sendMessage`);
    expect(r.headers['content-type']).toBe('application/json');
    const body = JSON.parse(r.body) as Record<string, unknown>;
    expect(body).toMatchObject({ chat_id: '-100123', message_thread_id: 7, parse_mode: 'HTML' });
    expect(body.text).toContain('<b>Berth test notification</b>');
  });

  it('discord: an embed; slack: mrkdwn blocks; teams, google chat, webhook with headers', async () => {
    const cases: [
      string,
      object,
      (b: Record<string, unknown>, r: (typeof rx.requests)[0]) => void,
    ][] = [
      [
        'discord',
        { webhook_url: `${rx.url}/discord/123/abc` },
        (b, r) => {
          expect(r.url).toBe('/discord/123/abc');
          expect(b.embeds).toMatchObject([{ title: 'Berth test notification', color: 0x3b82f6 }]);
        },
      ],
      [
        'slack',
        { webhook_url: `${rx.url}/slack/T/B/X` },
        (b) => {
          expect(b.attachments).toMatchObject([
            { blocks: [{ type: 'section', text: { type: 'mrkdwn' } }] },
          ]);
          expect(JSON.stringify(b)).toContain('*Berth test notification*');
        },
      ],
      [
        'teams',
        { webhook_url: `${rx.url}/teams` },
        (b) => {
          expect(JSON.stringify(b)).toContain('application/vnd.microsoft.card.adaptive');
        },
      ],
      [
        'google_chat',
        { webhook_url: `${rx.url}/gchat` },
        (b) => {
          expect(b.text).toContain('*Berth test notification*');
        },
      ],
      [
        'webhook',
        { url: `${rx.url}/hook`, headers: '{"X-Token":"s3cret"}' },
        (b, r) => {
          expect(r.headers['x-token']).toBe('s3cret');
          expect(b).toMatchObject({ event: 'test', severity: 'info' });
        },
      ],
      [
        'gotify',
        { server_url: `${rx.url}/gotify/`, app_token: 'gtok' },
        (b, r) => {
          expect(r.url).toBe('/gotify/message');
          expect(r.headers['x-gotify-key']).toBe('gtok');
          expect(b).toMatchObject({ title: 'Berth test notification', priority: 3 });
        },
      ],
      [
        'ntfy',
        { topic: 'berth-ops', token: 'tk_1' },
        (b, r) => {
          expect(r.url).toBe('/ntfy/');
          expect(r.headers.authorization).toBe('Bearer tk_1');
          expect(b).toMatchObject({ topic: 'berth-ops', markdown: true });
        },
      ],
    ];
    for (const [type, config, check] of cases) {
      const ch = (await create({ name: `c-${type}`, type, config })).body;
      expect((await api.post(`/notifications/channels/${ch.id}/test`, {})).body).toEqual({
        success: true,
        error: null,
      });
      check(JSON.parse(last().body) as Record<string, unknown>, last());
    }
  });

  it('pushover: a form to /1/messages.json', async () => {
    const ch = (
      await create({
        name: 'po',
        type: 'pushover',
        config: { app_token: 'apptok', user_key: 'userkey', url: 'https://berth.example.com' },
      })
    ).body;
    await api.post(`/notifications/channels/${ch.id}/test`, {});
    const r = last();
    expect(r.url).toBe('/po/1/messages.json');
    expect(r.headers['content-type']).toBe('application/x-www-form-urlencoded');
    const form = new URLSearchParams(r.body);
    expect(form.get('token')).toBe('apptok');
    expect(form.get('user')).toBe('userkey');
    expect(form.get('html')).toBe('1');
    expect(form.get('url_title')).toBe('Open Berth');
  });

  it('smtp: STARTTLS on a loopback server, login, a text and an HTML part', async () => {
    const ch = (
      await create({
        name: 'mail',
        type: 'smtp',
        config: {
          smtp_host: '127.0.0.1',
          smtp_port: mail.port,
          smtp_user: 'berth',
          smtp_password: 'mail-secret',
          from_email: 'berth@example.com',
          to_email: 'ops@example.com, oncall@example.com',
          use_tls: true,
          tls_verify: false,
        },
      })
    ).body;
    expect(ch.config.smtp_password).toBe('••••••');
    const res = await api.post(`/notifications/channels/${ch.id}/test`, {});
    expect(res.body).toEqual({ success: true, error: null });
    const m = mail.mails.at(-1);
    if (m === undefined) throw new Error('no mail');
    expect(m.secure).toBe(true);
    expect(m.user).toBe('berth');
    expect(m.to).toEqual(['ops@example.com', 'oncall@example.com']);
    expect(m.raw).toContain('Subject: Berth test notification');
    expect(m.raw).toContain('text/plain');
    expect(m.raw).toContain('text/html');
  });

  it('a refusing or unreachable service answers success false with the reason', async () => {
    const ch = (
      await create({
        name: 'down',
        type: 'discord',
        config: { webhook_url: 'http://127.0.0.1:65500/x' },
      })
    ).body;
    const res = await api.post<{ success: boolean; error: string }>(
      `/notifications/channels/${ch.id}/test`,
      {},
    );
    expect(res.body.success).toBe(false);
    expect(res.body.error).toContain('ECONNREFUSED');
    const listed = (await api.get<NotificationChannel[]>('/notifications/channels')).body.find(
      (c) => c.id === ch.id,
    );
    expect(listed?.last_error).toContain('ECONNREFUSED');
  });

  it('a webhook on a port fetch refuses ("bad port") gets the test message', async () => {
    const blocked = await httpReceiver({ blockedPort: true });
    try {
      const ch = (
        await create({ name: 'odd-port', type: 'webhook', config: { url: `${blocked.url}/in` } })
      ).body;
      const res = await api.post(`/notifications/channels/${ch.id}/test`, {});
      expect(res.body).toEqual({ success: true, error: null });
      expect(blocked.requests.map((r) => `${r.method} ${r.url}`)).toEqual(['POST /in']);
    } finally {
      await blocked.close();
    }
  });
});
