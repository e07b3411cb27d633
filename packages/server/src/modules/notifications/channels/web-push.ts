import type { WebPushPayload } from '@berth/contracts';
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import webpush from 'web-push';
import type { OutgoingMessage } from '../message.js';
import { toPlain, truncate } from '../message.js';
import { networkReason } from './http.js';
import { DeliveryError, str, type ChannelDriver } from './driver.js';

/** Push services keep an undelivered message this long (a phone off for a night still gets it). */
const TTL_SECONDS = 24 * 3600;
/** Push services take about 4 KB encrypted; the body is cut well below it. */
const BODY_CHARS = 1000;

/** The path of the app a notification opens: the alert's side panel, or the channels page. */
export function linkOf(message: OutgoingMessage): string {
  if (message.alert_id !== null) return `/alerts?alertId=${encodeURIComponent(message.alert_id)}`;
  if (message.kind === 'summary') return '/alerts';
  return '/settings/notifications';
}

export function payloadOf(message: OutgoingMessage): WebPushPayload {
  return {
    title: truncate(message.title, 200),
    body: truncate(toPlain(message.body), BODY_CHARS),
    url: linkOf(message),
    tag: message.alert_id ?? message.kind,
    severity: message.kind === 'resolved' ? 'resolved' : message.severity,
    kind: message.kind,
  };
}

/** The answers that say the subscription is no more: the browser unsubscribed or it expired. */
const GONE = new Set([404, 410]);

/**
 * Web Push to a browser (RFC 8030/8291/8292): the payload encrypted for the subscription's
 * keys (aes128gcm) and signed with Berth's VAPID key, POSTed to the browser's push service.
 * A 404 or 410 means the subscription is gone: a permanent failure marked `gone`, so the
 * channel drops it and nothing is retried.
 */
export const webPush: ChannelDriver = {
  type: 'web_push',
  async send(config, message, ctx) {
    const endpoint = str(config, 'endpoint');
    if (endpoint === '')
      throw new DeliveryError(
        'This device has no push subscription any more; subscribe it again in Settings → Notifications',
        { permanent: true },
      );
    const vapid = ctx.vapid?.();
    if (vapid === undefined || vapid === null)
      throw new DeliveryError('Web Push keys are not loaded yet');
    const details = webpush.generateRequestDetails(
      { endpoint, keys: { p256dh: str(config, 'p256dh'), auth: str(config, 'auth') } },
      JSON.stringify(payloadOf(message)),
      {
        vapidDetails: vapid,
        TTL: TTL_SECONDS,
        contentEncoding: 'aes128gcm',
        urgency: message.kind === 'alert' && message.severity === 'critical' ? 'high' : 'normal',
      },
    );
    const headers = { ...details.headers };
    let answer: { status: number; text: string; retryAfter: string | undefined };
    try {
      answer = await post(new URL(details.endpoint), headers, details.body, ctx.timeoutMs);
    } catch (err) {
      throw new DeliveryError(
        err instanceof PushTimeout ? err.message : networkReason(err, ctx.timeoutMs),
      );
    }
    const { status, text } = answer;
    if (status >= 200 && status < 300) return;
    if (GONE.has(status))
      throw new DeliveryError(
        `The push service says this device's subscription has expired or was revoked (HTTP ${status}); it was removed. Subscribe the device again to get alerts on it`,
        { permanent: true, gone: true },
      );
    const said = text === '' ? '' : `: ${text}`;
    if (status === 401 || status === 403)
      throw new DeliveryError(
        `The push service refused Berth's key (HTTP ${status})${said}. Subscribe the device again`,
        { permanent: true },
      );
    const retryAfter = answer.retryAfter === undefined ? NaN : Number(answer.retryAfter);
    throw new DeliveryError(`HTTP ${status}${said}`, {
      permanent: status >= 400 && status < 500 && status !== 408 && status !== 429,
      ...(Number.isFinite(retryAfter) ? { retryAfterMs: Math.max(0, retryAfter * 1000) } : {}),
    });
  },
};

class PushTimeout extends Error {}

/** One POST with a binary body, bounded as a whole by `timeoutMs`; keeps 300 characters. */
function post(
  url: URL,
  headers: Record<string, string>,
  body: Buffer,
  timeoutMs: number,
): Promise<{ status: number; text: string; retryAfter: string | undefined }> {
  return new Promise((resolve, reject) => {
    const send = url.protocol === 'http:' ? httpRequest : httpsRequest;
    const req = send(
      url,
      { method: 'POST', headers: { ...headers, 'content-length': String(body.length) } },
      (res: IncomingMessage) => {
        const chunks: Buffer[] = [];
        let size = 0;
        res.on('data', (c: Buffer) => {
          if (size < 1200) chunks.push(c);
          size += c.length;
        });
        res.on('error', reject);
        res.on('end', () => {
          clearTimeout(timer);
          resolve({
            status: res.statusCode ?? 0,
            text: Buffer.concat(chunks).toString('utf8').slice(0, 300),
            retryAfter: res.headers['retry-after'],
          });
        });
      },
    );
    const timer = setTimeout(() => {
      req.destroy(new PushTimeout(`No answer within ${Math.round(timeoutMs / 1000)} s`));
    }, timeoutMs);
    req.on('error', (err) => {
      clearTimeout(timer);
      reject(err);
    });
    req.end(body);
  });
}
