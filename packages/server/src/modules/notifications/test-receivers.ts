import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SMTPServer } from 'smtp-server';

export interface Received {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  body: string;
  at: number;
}

/**
 * A loopback HTTP server standing in for a notification service: records every request,
 * answers from a queue of status codes (then 200), or waits forever when told to.
 */
export async function httpReceiver() {
  const requests: Received[] = [];
  const statuses: number[] = [];
  let hang = false;
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      requests.push({
        method: req.method ?? '',
        url: req.url ?? '',
        headers: req.headers,
        body: Buffer.concat(chunks).toString('utf8'),
        at: Date.now(),
      });
      if (hang) return;
      const status = statuses.shift() ?? 200;
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(status < 300 ? '{"ok":true}' : '{"ok":false,"description":"refused"}');
    });
  });
  server.keepAliveTimeout = 100;
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    /** Answers these statuses first, one per request. */
    answer: (...codes: number[]) => statuses.push(...codes),
    /** Answers 200 from now on. */
    reset: () => statuses.splice(0),
    hang: (on: boolean) => {
      hang = on;
    },
    json: (i: number) => JSON.parse(requests[i]?.body ?? 'null') as Record<string, unknown>,
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
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
  const dir = mkdtempSync(join(tmpdir(), 'berth-smtp-'));
  execFileSync(
    'openssl',
    [
      'req',
      '-x509',
      '-newkey',
      'rsa:2048',
      '-nodes',
      '-days',
      '1',
      '-subj',
      '/CN=localhost',
      '-keyout',
      join(dir, 'key.pem'),
      '-out',
      join(dir, 'cert.pem'),
    ],
    { stdio: 'ignore' },
  );
  const mails: Mail[] = [];
  const server = new SMTPServer({
    key: readFileSync(join(dir, 'key.pem')),
    cert: readFileSync(join(dir, 'cert.pem')),
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
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.server.address() as AddressInfo).port;
  return {
    port,
    mails,
    credentials,
    close: () =>
      new Promise<void>((r) => {
        server.close(() => {
          rmSync(dir, { recursive: true, force: true });
          r();
        });
      }),
  };
}
export type SmtpReceiver = Awaited<ReturnType<typeof smtpReceiver>>;
