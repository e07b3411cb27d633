import http from 'node:http';
import https from 'node:https';
import { parseStatusCodes } from '@berth/contracts';

/** Redirects followed before a check fails with 'Too many redirects'. */
export const MAX_REDIRECTS = 5;
/** At most this much of a response body is read (and thrown away) before the socket closes. */
export const BODY_CAP_BYTES = 64 * 1024;
const DRAIN_MS = 1000;

export interface ProbeRequest {
  url: string;
  method: 'GET' | 'POST' | 'HEAD';
  expectedStatusCodes: string;
  timeoutMs: number;
  followRedirects: boolean;
  verifySsl: boolean;
  headers: Record<string, string>;
}

export interface ProbeResult {
  healthy: boolean;
  message: string;
  statusCode: number | null;
  responseTimeMs: number | null;
}

class ProbeFailure extends Error {}

const TLS_CODES: Record<string, string> = {
  DEPTH_ZERO_SELF_SIGNED_CERT: 'self-signed certificate',
  SELF_SIGNED_CERT_IN_CHAIN: 'self-signed certificate in the chain',
  UNABLE_TO_VERIFY_LEAF_SIGNATURE: 'unable to verify the certificate',
  UNABLE_TO_GET_ISSUER_CERT_LOCALLY: 'unknown certificate issuer',
  CERT_HAS_EXPIRED: 'certificate has expired',
  CERT_NOT_YET_VALID: 'certificate is not yet valid',
  ERR_TLS_CERT_ALTNAME_INVALID: 'certificate does not match the host name',
};

/** A network error as an operator reads it: refused, timed out, TLS, DNS, reset. */
export function describeError(err: unknown, url: URL): string {
  const e = err as NodeJS.ErrnoException & { reason?: string };
  const where = url.host;
  const code = e.code ?? '';
  if (code in TLS_CODES)
    return `TLS error: ${TLS_CODES[code]} (${where}); turn Verify SSL off to accept it`;
  if (code.startsWith('ERR_SSL') || code.startsWith('ERR_TLS') || /ssl|tls/i.test(e.message))
    return `TLS error: ${e.reason ?? e.message} (${where})`;
  switch (code) {
    case 'ECONNREFUSED':
      return `Connection refused (${where})`;
    case 'ECONNRESET':
    case 'EPIPE':
      return `Connection reset by ${where}`;
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return `Host not found: ${url.hostname}`;
    case 'EHOSTUNREACH':
    case 'ENETUNREACH':
      return `Host unreachable (${where})`;
    case 'HPE_INVALID_CONSTANT':
    case 'HPE_INVALID_STATUS':
    case 'HPE_INVALID_HEADER_TOKEN':
      return `Not an HTTP answer from ${where}`;
    default:
      return `Connection failed: ${e.message || code || 'unknown error'}`;
  }
}

/** True when `code` is one of the expected codes ('200', '200-299', '200,201,204'). */
export function statusMatches(code: number, expected: string): boolean {
  const ranges = parseStatusCodes(expected) ?? [[200, 200]];
  return ranges.some(([lo, hi]) => code >= lo && code <= hi);
}

interface Hop {
  statusCode: number;
  location: string | undefined;
}

/**
 * One request: connects, reads the status line and headers, drains at most BODY_CAP_BYTES
 * of the body and closes the socket. Never reuses a connection (each check is a fresh one,
 * so a dead listener shows as refused rather than a stale socket's reset).
 */
function requestOnce(url: URL, req: ProbeRequest, signal: AbortSignal): Promise<Hop> {
  return new Promise((resolve, reject) => {
    const client = url.protocol === 'https:' ? https : http;
    const r = client.request(
      url,
      {
        method: req.method,
        headers: { 'user-agent': 'Berth-HealthCheck/1', ...req.headers },
        agent: false,
        rejectUnauthorized: req.verifySsl,
        signal,
      },
      (res) => {
        // The status decides; the body is drained (at most BODY_CAP_BYTES, for at most
        // DRAIN_MS) so the server sees a clean read, then the socket closes.
        resolve({ statusCode: res.statusCode ?? 0, location: res.headers.location });
        let seen = 0;
        const stop = setTimeout(() => res.destroy(), DRAIN_MS);
        res.on('data', (chunk: Buffer) => {
          seen += chunk.length;
          if (seen > BODY_CAP_BYTES) res.destroy();
        });
        res.on('error', () => undefined);
        res.on('close', () => clearTimeout(stop));
      },
    );
    r.on('error', reject);
    if (req.method === 'POST') r.setHeader('content-length', 0);
    r.end();
  });
}

/** Runs one check within `timeoutMs` (connect, TLS, headers and redirects included). */
export async function probe(req: ProbeRequest): Promise<ProbeResult> {
  const started = performance.now();
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), req.timeoutMs);
  const seconds = Math.round(req.timeoutMs / 100) / 10;
  let url = new URL(req.url);
  try {
    for (let hops = 0; ; hops++) {
      let hop: Hop;
      try {
        hop = await requestOnce(url, req, controller.signal);
      } catch (err) {
        if (controller.signal.aborted) throw new ProbeFailure(`Timed out after ${seconds}s`);
        throw new ProbeFailure(describeError(err, url));
      }
      const redirect = hop.statusCode >= 300 && hop.statusCode < 400 && hop.location;
      if (req.followRedirects && redirect) {
        if (hops >= MAX_REDIRECTS)
          throw new ProbeFailure(`Too many redirects (more than ${MAX_REDIRECTS})`);
        try {
          url = new URL(hop.location ?? '', url);
        } catch {
          throw new ProbeFailure(
            `Invalid redirect location: ${String(hop.location).slice(0, 200)}`,
          );
        }
        if (url.protocol !== 'http:' && url.protocol !== 'https:')
          throw new ProbeFailure(`Redirect to an unsupported address: ${url.protocol}`);
        continue;
      }
      const ms = Math.round(performance.now() - started);
      const healthy = statusMatches(hop.statusCode, req.expectedStatusCodes);
      return {
        healthy,
        statusCode: hop.statusCode,
        responseTimeMs: ms,
        message: healthy
          ? `Received status ${hop.statusCode} (matches expected)`
          : `Received status ${hop.statusCode} (expected: ${req.expectedStatusCodes})`,
      };
    }
  } catch (err) {
    const message =
      err instanceof ProbeFailure ? err.message : `Check failed: ${(err as Error).message}`;
    return { healthy: false, message, statusCode: null, responseTimeMs: null };
  } finally {
    clearTimeout(timer);
  }
}
