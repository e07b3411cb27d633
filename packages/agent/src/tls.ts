import { readFileSync } from 'node:fs';
import { rootCertificates } from 'node:tls';
import type { AgentConfig } from './config.js';

/**
 * The CAs Berth's certificate is checked against: the system's, plus BERTH_AGENT_CA_FILE's
 * (a self-made certificate). Undefined without a CA file, so Node's own store (and
 * NODE_EXTRA_CA_CERTS) applies unchanged. Read once at start: a missing or empty file stops
 * the agent with the reason.
 */
export function trustedCas(config: AgentConfig): string[] | undefined {
  if (config.caFile === undefined || config.caFile === null) return undefined;
  let pem: string;
  try {
    pem = readFileSync(config.caFile, 'utf8');
  } catch (err) {
    const code = (err as { code?: unknown }).code;
    throw new Error(`BERTH_AGENT_CA_FILE ${config.caFile} cannot be read (${String(code)})`, {
      cause: err,
    });
  }
  if (!pem.includes('-----BEGIN CERTIFICATE-----'))
    throw new Error(`BERTH_AGENT_CA_FILE ${config.caFile} holds no PEM certificate`);
  return [...rootCertificates, pem];
}

const UNTRUSTED = new Set([
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'UNABLE_TO_GET_ISSUER_CERT',
  'CERT_UNTRUSTED',
]);

/**
 * A failed TLS check of Berth's certificate said plainly, with what to do about it; any other
 * error's own message (Node's connection errors name no credential).
 */
export function describeConnectError(err: unknown): string {
  const code = (err as { code?: unknown } | null)?.code;
  const message = err instanceof Error ? err.message : String(err);
  if (typeof code !== 'string') return message;
  if (UNTRUSTED.has(code))
    return `Berth's TLS certificate is not trusted (${code}): give the CA that signed it in BERTH_AGENT_CA_FILE`;
  if (code === 'ERR_TLS_CERT_ALTNAME_INVALID')
    return `Berth's TLS certificate does not name the host in BERTH_URL (${code}): ${message}`;
  if (code === 'CERT_HAS_EXPIRED' || code === 'CERT_NOT_YET_VALID')
    return `Berth's TLS certificate is not valid now (${code})`;
  return message;
}
