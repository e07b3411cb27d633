import { AGENT_TOKEN_HEADER, readAgentEnrollResponse } from '@berth/contracts/agent-wire';
import type { AgentEnrollPayload, AgentEnrollResponse } from '@berth/contracts/agents';
import http from 'node:http';
import https from 'node:https';
import { setTimeout as sleep } from 'node:timers/promises';
import type { AgentConfig } from './config.js';
import { logLine } from './log.js';
import { retryAfterDelayMs } from './retry-after.js';
import { retryDelayMs } from './run.js';
import { readSecret, writeSecret } from './secret-file.js';
import { describeConnectError, trustedCas } from './tls.js';

const ENROLL_TIMEOUT_MS = 15_000;
/** Berth's answer is a few hundred bytes; anything past this is not Berth. */
const ANSWER_CAP_BYTES = 64 * 1024;

/**
 * The agent's secret: read from its data dir, or, on its first start, traded for the
 * enrollment token and written there (owner-only) before it is used.
 */
export async function agentSecret(
  config: AgentConfig,
  version: string,
  /** Ends a wait between enrollment attempts (SIGTERM): the promise rejects with an AbortError. */
  signal?: AbortSignal,
): Promise<string> {
  const stored = await readSecret(config.dataDir);
  if (stored !== null) return stored;
  const token = config.token;
  if (token === null)
    throw new Error(`No secret in ${config.dataDir} and no BERTH_AGENT_TOKEN to enroll with`);
  const payload = { name: config.name, version };
  for (let attempt = 0; ; attempt++) {
    try {
      const { secret } = await enroll(config, token, payload);
      await writeSecret(config.dataDir, secret);
      return secret;
    } catch (err) {
      if (!(err instanceof EnrollRefusal) || !err.passing) throw err;
      const delayMs = err.retryAfterMs ?? retryDelayMs(attempt);
      logLine('warn', `${err.message}: enrolling again in ${Math.ceil(delayMs / 1000)} s`);
      await sleep(delayMs, undefined, { signal });
    }
  }
}

/** Berth answered the enrollment with something other than the agent's secret. */
export class EnrollRefusal extends Error {
  constructor(
    message: string,
    readonly status: number,
    /** How long Berth asked the agent to wait (Retry-After); undefined: its own backoff. */
    readonly retryAfterMs: number | undefined,
  ) {
    super(message);
  }

  /**
   * Throttled (429) or Berth (or its proxy) failing for now (5xx): the same token may work
   * later. Any other answer (a used, expired or unknown token: 401) never will.
   */
  get passing(): boolean {
    return this.status === 429 || this.status >= 500;
  }
}

async function enroll(
  config: AgentConfig,
  token: string,
  payload: AgentEnrollPayload,
): Promise<AgentEnrollResponse> {
  const { status, headers, body } = await postJson(
    new URL(config.enrollUrl),
    { [AGENT_TOKEN_HEADER]: token },
    payload,
    trustedCas(config),
  );
  if (status !== 201) {
    const detail = (body as { detail?: unknown } | null)?.detail;
    throw new EnrollRefusal(
      `Berth refused the enrollment (${status})${typeof detail === 'string' ? `: ${detail}` : ''}`,
      status,
      retryAfterDelayMs(headers['retry-after']) ?? undefined,
    );
  }
  return readAgentEnrollResponse(body);
}

/**
 * POSTs JSON through node:http(s), not fetch: fetch takes no CA of its own without undici's
 * dispatcher, and the enrollment must check Berth's certificate against BERTH_AGENT_CA_FILE
 * as the WebSocket does. The answer's JSON body, or null when it is not JSON.
 */
function postJson(
  url: URL,
  headers: Record<string, string>,
  payload: unknown,
  ca: string[] | undefined,
): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: unknown }> {
  const data = JSON.stringify(payload);
  return new Promise((resolve, reject) => {
    const req = (url.protocol === 'https:' ? https : http).request(url, {
      method: 'POST',
      headers: {
        ...headers,
        'content-type': 'application/json',
        'content-length': Buffer.byteLength(data),
      },
      timeout: ENROLL_TIMEOUT_MS,
      ...(ca === undefined ? {} : { ca }),
    });
    req.once('timeout', () =>
      req.destroy(new Error('Berth did not answer the enrollment in time')),
    );
    req.once('error', (err) => reject(new Error(describeConnectError(err))));
    req.once('response', (res) => {
      const chunks: Buffer[] = [];
      let size = 0;
      res.on('data', (chunk: Buffer) => {
        size += chunk.length;
        if (size > ANSWER_CAP_BYTES) req.destroy(new Error("Berth's answer is too large"));
        else chunks.push(chunk);
      });
      res.once('error', (err) => reject(err));
      res.once('end', () => {
        let body: unknown = null;
        try {
          body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
        } catch {
          // not JSON: the status says enough
        }
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body });
      });
    });
    req.end(data);
  });
}
