/** A failure to talk to an engine, with a message fit for the UI. */
export class EngineError extends Error {
  override name = 'EngineError';
}

/** The reason for a server that answers, but not as the Docker API (or not even HTTP). */
export const NOT_DOCKER = 'Not a Docker engine';

const TLS_CLIENT_REJECTED = new Set([
  'ERR_SSL_SSLV3_ALERT_BAD_CERTIFICATE',
  'ERR_SSL_TLSV1_ALERT_UNKNOWN_CA',
  'ERR_SSL_SSLV3_ALERT_CERTIFICATE_UNKNOWN',
  'ERR_SSL_TLSV13_ALERT_CERTIFICATE_REQUIRED',
  'ERR_SSL_TLSV1_ALERT_ACCESS_DENIED',
  'ECONNRESET_TLS',
]);
const TLS_SERVER_UNTRUSTED = new Set([
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'CERT_HAS_EXPIRED',
  'ERR_TLS_CERT_ALTNAME_INVALID',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
]);

function codeOf(err: unknown): string {
  if (typeof err !== 'object' || err === null) return '';
  const { code, cause } = err as { code?: unknown; cause?: unknown };
  if (typeof code === 'string') return code;
  return cause === undefined ? '' : codeOf(cause);
}

/**
 * A short, clear reason for a failed engine call: refused, timed out, unknown host,
 * TLS rejected either way, a socket that is missing or closed to us, or a server that
 * answers but is not the Docker API (NOT_DOCKER, the same text for every engine, so a
 * status reason stays short). Mapped from error codes, not from message text.
 */
export function describeEngineError(err: unknown, url: string): string {
  if (err instanceof EngineError) return err.message;
  const code = codeOf(err);
  if (code === 'ECONNREFUSED')
    return `Connection refused by ${url}: is the Docker engine running and listening there?`;
  if (code === 'ETIMEDOUT' || code === 'ESOCKETTIMEDOUT' || code === 'UND_ERR_CONNECT_TIMEOUT') {
    return `Connection to ${url} timed out`;
  }
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') return `Host not found: ${url}`;
  if (code === 'EHOSTUNREACH' || code === 'ENETUNREACH') return `No route to ${url}`;
  if (code === 'ENOENT') return `Socket not found: ${url}`;
  if (code === 'EACCES') return `Permission denied on ${url}: Berth cannot open that socket`;
  if (TLS_CLIENT_REJECTED.has(code) || code.startsWith('ERR_SSL_')) {
    return `TLS handshake rejected by ${url}: the engine did not accept the client certificate`;
  }
  if (TLS_SERVER_UNTRUSTED.has(code)) {
    return `TLS verification failed for ${url}: the engine's certificate is not signed by the given CA (${code})`;
  }
  if (code === 'EPROTO' || code === 'ECONNRESET') {
    return `Connection to ${url} was reset: wrong protocol (TLS vs plain) or the engine closed it`;
  }
  if (code === 'EPIPE') return `Connection to ${url} closed unexpectedly`;
  // Node's HTTP parser: the bytes that came back are not HTTP at all.
  if (code.startsWith('HPE_')) return NOT_DOCKER;
  const status = (err as { statusCode?: unknown } | null)?.statusCode;
  if (typeof status === 'number') {
    if (status === 400 && /HTTPS server/.test(bodyText(err))) {
      return `${url} expects TLS: give its CA, client certificate and key`;
    }
    if (status === 404 || status === 400) return NOT_DOCKER;
    const reason = (err as { json?: { message?: unknown } }).json?.message;
    return `Docker engine at ${url} answered HTTP ${status}${typeof reason === 'string' ? `: ${reason}` : ''}`;
  }
  return `Cannot reach ${url}: ${err instanceof Error ? err.message : String(err)}`;
}

/** docker-modem keeps a non-JSON error body as a Buffer in `json`. */
function bodyText(err: unknown): string {
  const body = (err as { json?: unknown }).json;
  if (Buffer.isBuffer(body)) return body.subarray(0, 200).toString('utf8');
  return typeof body === 'string' ? body : '';
}
