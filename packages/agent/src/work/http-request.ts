import http, { type IncomingHttpHeaders } from 'node:http';
import https from 'node:https';

/** The request's deadline passed (connect, TLS, headers or the body's read). */
export class HttpTimeoutError extends Error {
  override name = 'HttpTimeoutError';
}

export interface HttpRequestOptions {
  method: string;
  headers?: Record<string, string>;
  body?: string;
  /** A `performance.now()` time by which connect, TLS, headers and the body's read are done. */
  deadline: number;
  /** At most this much of the body is read; past it the socket is closed. */
  readCapBytes: number;
  /** How many of the bytes read are kept for `body` (0: drained and thrown away). */
  keepBytes?: number;
  /** Certificates are verified unless this is false. */
  rejectUnauthorized?: boolean;
  /** Pooled agents per protocol; Node's global (keep-alive) ones otherwise. */
  agents?: { http: http.Agent; https: https.Agent };
}

export interface HttpAnswer {
  statusCode: number;
  headers: IncomingHttpHeaders;
  /** The kept start of the body once it ended, hit the cap or the deadline. Never rejects. */
  body: Promise<Buffer>;
}

/**
 * One HTTP(S) request through Node's client. Not fetch: fetch refuses the ports on its
 * blocked-port list (10080, 6000, 6665, ...) with "bad port", and a webhook or a container's
 * health endpoint may listen on any of them. Resolves on the status line and headers;
 * redirects are the caller's. One timer covers the whole request, body included. A request
 * that fails on a reused keep-alive socket the server had just closed is tried once more on
 * a fresh one (the server never read it).
 */
export function httpRequest(url: URL, opts: HttpRequestOptions, retry = true): Promise<HttpAnswer> {
  return new Promise((resolve, reject) => {
    const tls = url.protocol === 'https:';
    let settled = false;
    const headers: Record<string, string | number> = { ...opts.headers };
    if (opts.body !== undefined) headers['content-length'] = Buffer.byteLength(opts.body);
    else if (opts.method !== 'GET' && opts.method !== 'HEAD') headers['content-length'] = 0;
    const r = (tls ? https : http).request({
      protocol: url.protocol,
      hostname: url.hostname.replace(/^\[|\]$/g, ''),
      port: url.port,
      path: `${url.pathname}${url.search}`,
      method: opts.method,
      headers,
      ...(opts.agents === undefined ? {} : { agent: tls ? opts.agents.https : opts.agents.http }),
      rejectUnauthorized: opts.rejectUnauthorized ?? true,
      ...(url.username === ''
        ? {}
        : { auth: `${decodeURIComponent(url.username)}:${decodeURIComponent(url.password)}` }),
    });
    const timer = setTimeout(
      () => r.destroy(new HttpTimeoutError()),
      Math.max(1, opts.deadline - performance.now()),
    );
    r.on('response', (res) => {
      settled = true;
      const body = new Promise<Buffer>((done) => {
        const kept: Buffer[] = [];
        let seen = 0;
        res.on('data', (chunk: Buffer) => {
          const room = (opts.keepBytes ?? 0) - Math.min(seen, opts.keepBytes ?? 0);
          if (room > 0) kept.push(chunk.subarray(0, room));
          seen += chunk.length;
          if (seen > opts.readCapBytes) res.destroy();
        });
        res.on('error', () => undefined);
        res.on('close', () => {
          clearTimeout(timer);
          done(Buffer.concat(kept));
        });
      });
      resolve({ statusCode: res.statusCode ?? 0, headers: res.headers, body });
    });
    r.on('error', (err: NodeJS.ErrnoException) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      if (retry && r.reusedSocket && err.code === 'ECONNRESET')
        httpRequest(url, opts, false).then(resolve, reject);
      else reject(err);
    });
    r.end(opts.body);
  });
}
