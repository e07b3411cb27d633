import http from 'node:http';
import https from 'node:https';
import { parseStatusCodes } from '@berth/contracts/agent-wire';
import type { AgentHttpProbeRequest, AgentHttpProbeResult } from '@berth/contracts/agents';
import { HttpTimeoutError, httpRequest } from './http-request.js';

/** Redirects followed before a check fails with 'Too many redirects'. */
export const MAX_REDIRECTS = 5;
/** At most this much of a response body is read (and thrown away) before the socket closes. */
export const BODY_CAP_BYTES = 64 * 1024;

// The one HTTP health-check probe: Berth runs it in its own process for local and direct
// hosts, and an agent runs it on its host for Berth (POST /v1/http-probe), so a check means
// the same wherever it runs. Its request and result are the contracts' wire shapes.
export type ProbeRequest = AgentHttpProbeRequest;
export type ProbeResult = AgentHttpProbeResult;

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
 * Connections are pooled per host and port: a thousand checks against a few servers reuse
 * sockets instead of paying a TCP (and TLS) handshake each time.
 */
const agents = {
  http: new http.Agent({ keepAlive: true, maxSockets: 8, scheduling: 'lifo' }),
  https: new https.Agent({ keepAlive: true, maxSockets: 8, scheduling: 'lifo' }),
};

/**
 * One request: resolves on the status line and headers; the body is drained (at most
 * BODY_CAP_BYTES) until it ends or the deadline passes, then the socket is freed or closed.
 */
async function requestOnce(url: URL, req: ProbeRequest, deadline: number): Promise<Hop> {
  const res = await httpRequest(url, {
    method: req.method,
    headers: { 'user-agent': 'Berth-HealthCheck/1', ...req.headers },
    deadline,
    readCapBytes: BODY_CAP_BYTES,
    rejectUnauthorized: req.verifySsl,
    agents,
  });
  const location = res.headers.location;
  return { statusCode: res.statusCode, location };
}

/** Runs one check within `timeoutMs` (connect, TLS, headers and redirects included). */
export async function probe(req: ProbeRequest): Promise<ProbeResult> {
  const started = performance.now();
  const deadline = started + req.timeoutMs;
  const seconds = Math.round(req.timeoutMs / 100) / 10;
  let url = new URL(req.url);
  try {
    for (let hops = 0; ; hops++) {
      let hop: Hop;
      try {
        if (performance.now() >= deadline) throw new HttpTimeoutError();
        hop = await requestOnce(url, req, deadline);
      } catch (err) {
        if (err instanceof HttpTimeoutError) throw new ProbeFailure(`Timed out after ${seconds}s`);
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
  }
}
