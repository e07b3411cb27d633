import type { Transporter } from 'nodemailer';
import { escapeHtml, toHtml, toPlain, colorOf } from '../message.js';
import type { ChannelConfig } from '@berth/contracts';
import { DeliveryError, str, type ChannelDriver } from './driver.js';

const MAX_POOLS = 20;

// nodemailer (~5 MB resident, ~45 ms to import) loads when an SMTP channel first sends.
let nodemailer: Promise<typeof import('nodemailer')> | undefined;
const loadNodemailer = () => (nodemailer ??= import('nodemailer'));

/** Pooled transports by configuration, so a burst reuses a few authenticated connections. */
const pools = new Map<string, Transporter>();

async function transportFor(config: ChannelConfig, timeoutMs: number): Promise<Transporter> {
  const key = JSON.stringify(config);
  const cached = pools.get(key);
  if (cached !== undefined) return cached;
  const { createTransport } = await loadNodemailer();
  // Another send may have made this transport while the module loaded.
  const made = pools.get(key);
  if (made !== undefined) return made;
  const port = Number(config.smtp_port ?? 587) || 587;
  const useTls = config.use_tls !== false;
  const user = str(config, 'smtp_user');
  const transport = createTransport({
    host: str(config, 'smtp_host'),
    port,
    // 465 speaks TLS from the first byte; other ports upgrade with STARTTLS, required when TLS is on.
    secure: useTls && port === 465,
    requireTLS: useTls && port !== 465,
    ignoreTLS: !useTls,
    ...(user === '' ? {} : { auth: { user, pass: str(config, 'smtp_password') } }),
    tls: { rejectUnauthorized: config.tls_verify !== false },
    connectionTimeout: timeoutMs,
    greetingTimeout: timeoutMs,
    socketTimeout: timeoutMs,
    pool: true,
    maxConnections: 4,
    maxMessages: 1000,
  });
  if (pools.size >= MAX_POOLS) {
    const [oldest] = pools.keys();
    if (oldest !== undefined) {
      pools.get(oldest)?.close();
      pools.delete(oldest);
    }
  }
  pools.set(key, transport);
  return transport;
}

/** E-mail through nodemailer: a plain-text and an HTML part, the alert title as subject. */
export const smtp: ChannelDriver = {
  type: 'smtp',
  async send(config, message, ctx) {
    const transport = await transportFor(config, ctx.timeoutMs);
    const html =
      `<div style="font-family:system-ui,sans-serif;font-size:14px">` +
      `<div style="border-left:4px solid ${colorOf(message)};padding-left:12px">` +
      `<h2 style="margin:0 0 8px">${escapeHtml(message.title)}</h2>` +
      `<div style="white-space:pre-wrap">${toHtml(message.body)}</div></div>` +
      `<p style="color:#888;font-size:12px">Sent by Berth</p></div>`;
    let timer: NodeJS.Timeout | undefined;
    try {
      await Promise.race([
        transport.sendMail({
          from: str(config, 'from_email'),
          to: str(config, 'to_email'),
          subject: message.title,
          text: toPlain(message.body),
          html,
        }),
        new Promise((_, reject) => {
          // Connection, greeting and socket time out on their own; this bounds the whole send.
          timer = setTimeout(
            () => reject(new Error(`No answer within ${Math.round((ctx.timeoutMs * 2) / 1000)} s`)),
            ctx.timeoutMs * 2,
          );
        }),
      ]);
    } catch (err) {
      const e = err as { responseCode?: number; code?: string; message?: string };
      const permanent =
        e.code === 'EAUTH' || (e.responseCode !== undefined && e.responseCode >= 500);
      throw new DeliveryError(`SMTP: ${e.message ?? String(err)}`, { permanent });
    } finally {
      clearTimeout(timer);
    }
  },
  close() {
    for (const t of pools.values()) t.close();
    pools.clear();
  },
};
