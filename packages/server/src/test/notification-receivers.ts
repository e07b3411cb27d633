import type { IncomingHttpHeaders } from 'node:http';
import { SMTPServer } from 'smtp-server';
import { listenOnLoopback, loopbackHttpReceiver, selfSignedCert } from './loopback.js';

export interface Received {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  body: string;
  at: number;
}

/**
 * A loopback HTTP server standing in for a notification service: records every request,
 * answers from a queue of status codes (then 200), late or never when told to;
 * `blockedPort` puts it on a port of fetch's blocked-port list.
 */
export async function httpReceiver(options: { blockedPort?: boolean } = {}) {
  const requests: Received[] = [];
  const statuses: number[] = [];
  let hang = false;
  let delayMs = 0;
  // Short keep-alive: a test's close does not wait on the idle sockets of Berth's client.
  const server = await loopbackHttpReceiver(
    (req, body, res) => {
      requests.push({
        method: req.method ?? '',
        url: req.url ?? '',
        headers: req.headers,
        body,
        at: Date.now(),
      });
      if (hang) return;
      const status = statuses.shift() ?? 200;
      setTimeout(() => {
        res.writeHead(status, { 'content-type': 'application/json' });
        res.end(status < 300 ? '{"ok":true}' : '{"ok":false,"description":"refused"}');
      }, delayMs);
    },
    { keepAliveTimeoutMs: 100, ...options },
  );
  return {
    url: server.url,
    requests,
    /** Answers these statuses first, one per request. */
    answer: (...codes: number[]) => statuses.push(...codes),
    /** Answers 200 from now on. */
    reset: () => statuses.splice(0),
    hang: (on: boolean) => {
      hang = on;
    },
    /** Answers each request this long after it arrived (a slow service; 0: at once). */
    delay: (ms: number) => {
      delayMs = ms;
    },
    json: (i: number) => JSON.parse(requests[i]?.body ?? 'null') as Record<string, unknown>,
    close: server.close,
  };
}
export type HttpReceiver = Awaited<ReturnType<typeof httpReceiver>>;

export interface Mail {
  from: string;
  to: string[];
  raw: string;
  secure: boolean;
  user: string | undefined;
}

/**
 * A loopback SMTP server (smtp-server) that offers STARTTLS with a self-signed certificate
 * made by openssl for this run, requires a login, and keeps every message.
 */
export async function smtpReceiver(credentials = { user: 'berth', pass: 'mail-secret' }) {
  const mails: Mail[] = [];
  const server = new SMTPServer({
    ...selfSignedCert(),
    authOptional: false,
    allowInsecureAuth: false,
    logger: false,
    onAuth(auth, _session, cb) {
      if (auth.username === credentials.user && auth.password === credentials.pass)
        cb(null, { user: auth.username });
      else cb(new Error('Invalid username or password'));
    },
    onData(stream, session, cb) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        mails.push({
          from: session.envelope.mailFrom === false ? '' : session.envelope.mailFrom.address,
          to: session.envelope.rcptTo.map((r) => r.address),
          raw: Buffer.concat(chunks).toString('utf8'),
          secure: session.secure,
          user: session.user as string | undefined,
        });
        cb();
      });
    },
  });
  const port = await listenOnLoopback(server.server);
  return {
    port,
    mails,
    credentials,
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}
export type SmtpReceiver = Awaited<ReturnType<typeof smtpReceiver>>;
