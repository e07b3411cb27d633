// bench/notifications: 1,000 alerts due within one second across 5 channels (Telegram,
// Discord, Slack, Gotify through loopback HTTP receivers; e-mail through a loopback SMTP
// server with STARTTLS), all through the notify port the alert engine calls. Prints the
// time until every message reached its receiver, messages lost and duplicated, and Berth's
// peak memory (RSS, sampled every 20 ms; the receivers run in a child process so they do
// not count). Needs a build (`npm run build`). Usage: node bench/notifications.ts [alerts=1000]
import { fork, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import {
  listenOnLoopback,
  loopbackHttpReceiver,
  selfSignedCert,
} from '../packages/server/src/test/loopback.ts';

const ROOT = resolve(import.meta.dirname, '..');
const require = createRequire(join(ROOT, 'packages/server/package.json'));
const ALERTS = Number(process.argv[2] ?? 1000);
const TOKEN = '111222333:bench-token';

/** The receivers' side (child process): counts what each alert id received, per service. */
async function receivers(): Promise<void> {
  const { SMTPServer } = require('smtp-server') as typeof import('smtp-server');
  const seen = new Map<string, number>();
  const note = (service: string, body: string) => {
    for (const id of body.match(/bench-alert-\d+/g) ?? []) {
      const key = `${service}|${id}`;
      seen.set(key, (seen.get(key) ?? 0) + 1);
      break;
    }
    process.send?.({ service, at: Date.now() });
  };
  const http = await loopbackHttpReceiver((req, body, res) => {
    note((req.url ?? '').split('/')[1] ?? '', body);
    res.setHeader('content-type', 'application/json');
    res.end('{"ok":true}');
  });
  const smtp = new SMTPServer({
    ...selfSignedCert(),
    logger: false,
    onAuth: (_a, _s, cb) => cb(null, { user: 'bench' }),
    onData(stream, _session, cb) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        note('smtp', Buffer.concat(chunks).toString('utf8'));
        cb();
      });
    },
  });
  process.send?.({ ready: true, http: http.port, smtp: await listenOnLoopback(smtp.server) });
  process.on('message', (m: { report?: boolean }) => {
    if (m.report !== true) return;
    const counts = [...seen.values()];
    process.send?.({ report: { keys: seen.size, duplicates: counts.filter((n) => n > 1).length } });
    setTimeout(() => process.exit(0), 50);
  });
}

async function main(): Promise<void> {
  const child: ChildProcess = fork(import.meta.filename, ['--receivers'], { stdio: 'inherit' });
  const ports = await new Promise<{ http: number; smtp: number }>((r) =>
    child.on('message', (m: { ready?: boolean; http: number; smtp: number }) => {
      if (m.ready === true) r(m);
    }),
  );
  let received = 0;
  let lastAt = 0;
  const lastBy = new Map<string, number>();
  child.on('message', (m: { service?: string; at?: number }) => {
    if (m.service !== undefined) {
      received++;
      lastAt = m.at ?? Date.now();
      lastBy.set(m.service, lastAt);
    }
  });
  const base = `http://127.0.0.1:${ports.http}`;
  const { buildApp } = (await import(
    join(ROOT, 'packages/server/dist/app.js')
  )) as typeof import('../packages/server/src/app.ts');
  const { loadConfig } = (await import(
    join(ROOT, 'packages/server/dist/config/config.js')
  )) as typeof import('../packages/server/src/config/config.ts');
  const dataDir = mkdtempSync(join(tmpdir(), 'berth-bench-notify-'));
  const app = await buildApp(
    loadConfig({
      BERTH_DATA_DIR: dataDir,
      BERTH_ADMIN_PASSWORD: 'bench-pass-123',
      BERTH_LOG_LEVEL: 'warn',
      BERTH_LOCAL_SOCKET: 'none',
      BERTH_WEB_DIR: join(dataDir, 'none'),
      BERTH_TELEGRAM_API_URL: `${base}/telegram`,
    }),
  );
  const ch = app.services.notifications.channels;
  const ids = [
    (await ch.create({ name: 'tg', type: 'telegram', config: { bot_token: TOKEN, chat_id: '1' } }))
      .id,
    (await ch.create({ name: 'dc', type: 'discord', config: { webhook_url: `${base}/discord/x` } }))
      .id,
    (await ch.create({ name: 'sl', type: 'slack', config: { webhook_url: `${base}/slack/x` } })).id,
    (
      await ch.create({
        name: 'go',
        type: 'gotify',
        config: { server_url: `${base}/gotify`, app_token: 't' },
      })
    ).id,
    (
      await ch.create({
        name: 'mail',
        type: 'smtp',
        config: {
          smtp_host: '127.0.0.1',
          smtp_port: ports.smtp,
          smtp_user: 'bench',
          smtp_password: 'x',
          from_email: 'berth@example.com',
          to_email: 'ops@example.com',
          use_tls: true,
          tls_verify: false,
        },
      })
    ).id,
  ];
  const expected = ALERTS * ids.length;
  let peak = process.memoryUsage().rss;
  const sampler = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage().rss);
  }, 20);
  const startRss = process.memoryUsage().rss;

  const started = Date.now();
  const spacing = 1000 / ALERTS;
  for (let i = 0; i < ALERTS; i++) {
    const at = new Date().toISOString();
    const id = `bench-alert-${i}`;
    await app.services.notifications.notify({
      event: 'raised',
      template: 'state_change',
      at,
      context: { old_state: 'running', new_state: 'exited', exit_code: 137 },
      rule: {
        id: 'r',
        name: 'Bench',
        kind: 'container_stopped',
        severity: 'critical',
        custom_template: null,
        notify_channels_json: ids,
      },
      alert: {
        id,
        title: `Bench - c${i} on h`,
        message: `Container c${i} died (${id})`,
        kind: 'container_stopped',
        state: 'open',
        severity: 'critical',
        scope_type: 'container',
        scope_id: `h:c${i}`,
        host_id: 'h',
        host_name: 'bench-host',
        container_name: `c${i}-${id}`,
        rule_id: 'r',
        first_seen: at,
        last_seen: at,
        current_value: null,
        threshold: null,
        snoozed_until: null,
        resolved_at: null,
        resolved_reason: null,
        occurrences: 1,
        rule_name: 'Bench',
      },
    });
    const due = started + (i + 1) * spacing;
    if (Date.now() < due) await new Promise((r) => setTimeout(r, due - Date.now()));
  }
  const queuedIn = Date.now() - started;
  const deadline = Date.now() + 120_000;
  while (received < expected && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
  await new Promise((r) => setTimeout(r, 1500)); // anything late or doubled shows up now
  clearInterval(sampler);
  const counts = await app.services.notifications.outboxCounts();
  const report = await new Promise<{ keys: number; duplicates: number }>((r) => {
    child.on('message', (m: { report?: { keys: number; duplicates: number } }) => {
      if (m.report !== undefined) r(m.report);
    });
    child.send({ report: true });
  });
  await app.close();
  rmSync(dataDir, { recursive: true, force: true });
  const mb = (n: number) => `${(n / 1024 / 1024).toFixed(0)} MB`;
  console.log(
    `alerts: ${ALERTS} raised in ${queuedIn} ms, ${ids.length} channels → ${expected} messages`,
  );
  console.log(
    `all delivered after: ${lastAt - started} ms (from the first alert to the last receipt)`,
  );
  console.log(
    `per service, last receipt: ${[...lastBy].map(([k, v]) => `${k} ${v - started} ms`).join(', ')}`,
  );
  console.log(
    `received: ${received}, distinct: ${report.keys}, lost: ${expected - report.keys}, duplicates: ${report.duplicates + (received - report.keys)}`,
  );
  console.log(`outbox: ${JSON.stringify(counts)}`);
  console.log(`Berth RSS: start ${mb(startRss)}, peak ${mb(peak)}`);
}

if (process.argv.includes('--receivers')) await receivers();
else await main();
