import { setTimeout as sleep } from 'node:timers/promises';
import {
  AGENT_CAPABILITIES_HEADER,
  AGENT_PROTOCOL,
  AGENT_PROTOCOL_HEADER,
  AGENT_SECRET_HEADER,
  AGENT_VERSION_HEADER,
  agentSecretHeaderValue,
} from '@berth/contracts/agent-wire';
import type { AgentConfig } from './config.js';
import { ConnectError, connectToBerth, type AgentConnection } from './connect.js';
import { startHeartbeat } from './heartbeat.js';
import { logLine } from './log.js';
import { trustedCas } from './tls.js';
import { agentCapabilities, agentHandlers } from './work/index.js';

const FIRST_RETRY_MS = 1000;
const MAX_RETRY_MS = 30_000;

/**
 * After losing a connection that worked (Berth restarting, a network blip), the agent redials
 * at the first step for this long before it backs off: with a doubling schedule, an agent that
 * just missed a Berth back after 5 s would wait up to 8 s more (measured by bench/agents).
 */
export const FAST_RETRY_WINDOW_MS = 60_000;

/** 1 s doubling up to 30 s, each drawn between half and all of it: agents of a restarted Berth spread out. */
export const retryDelayMs = (attempt: number, random = Math.random) => {
  const ceiling = Math.min(MAX_RETRY_MS, FIRST_RETRY_MS * 2 ** attempt);
  return Math.round(ceiling / 2 + (random() * ceiling) / 2);
};

/**
 * The wait before the next dial: the first step while a lost connection is recent, else the
 * backoff for this attempt. `msSinceLoss` is null when no connection has worked yet (Berth
 * unreachable from the start), where backing off at once is right.
 */
export const nextDialDelayMs = (
  attempt: number,
  msSinceLoss: number | null,
  random = Math.random,
): { delayMs: number; backingOff: boolean } =>
  msSinceLoss !== null && msSinceLoss < FAST_RETRY_WINDOW_MS
    ? { delayMs: retryDelayMs(0, random), backingOff: false }
    : { delayMs: retryDelayMs(attempt, random), backingOff: true };

/**
 * Keeps the agent connected until `signal` aborts: every lost connection is dialled again
 * after a backoff that resets once a connection opens. Berth refusing the secret (the host
 * was deleted) ends the agent: no retry can succeed.
 */
export async function stayConnected(
  config: AgentConfig,
  /** Read at each dial: a rotated secret is used from the next connection on. */
  secret: () => Promise<string>,
  version: string,
  signal: AbortSignal,
): Promise<number> {
  const handlers = agentHandlers(config);
  const ca = trustedCas(config);
  const announced = {
    [AGENT_VERSION_HEADER]: version,
    [AGENT_PROTOCOL_HEADER]: String(AGENT_PROTOCOL),
    [AGENT_CAPABILITIES_HEADER]: agentCapabilities(config).join(','),
  };
  let attempt = 0;
  let lostAt: number | null = null;
  let current: AgentConnection | null = null;
  // Read through a call: the signal aborts while this loop awaits.
  const stopping = () => signal.aborted;
  signal.addEventListener('abort', () => current?.socket.close(1001, 'agent stopping'));
  while (!stopping()) {
    // A throttled connect (429) waits what Berth asked for: redialling sooner is refused again.
    let asked: number | undefined;
    try {
      current = await connectToBerth({
        url: config.connectUrl,
        headers: {
          ...announced,
          [AGENT_SECRET_HEADER]: agentSecretHeaderValue(await secret()),
        },
        socketPath: config.socketPath,
        handlers,
        onStreamError: (message) => logLine('warn', message),
        ...(ca === undefined ? {} : { ca }),
        readOnly: config.readOnly === true,
      });
      attempt = 0;
      lostAt = null;
      startHeartbeat(current.socket);
      logLine(
        'info',
        `Connected to ${config.connectUrl}, engine at ${config.socketPath}${config.readOnly ? ' (read-only: actions are refused)' : ''}`,
      );
      if (config.insecure)
        logLine(
          'warn',
          'Connected without TLS (BERTH_AGENT_INSECURE=1): the secret and the engine traffic cross the network unencrypted',
        );
      if (stopping()) current.socket.close(1001, 'agent stopping');
      const { code, reason } = await current.closed;
      current = null;
      lostAt = Date.now();
      if (stopping()) return 0;
      logLine('warn', `Connection closed (${code}${reason === '' ? '' : `: ${reason}`})`);
    } catch (err) {
      if (err instanceof ConnectError && err.status === 401) {
        logLine('error', `${err.message}: this agent's secret is no longer valid; enroll it again`);
        return 1;
      }
      if (err instanceof ConnectError && err.retryAfterMs !== undefined) {
        asked = err.retryAfterMs;
        logLine(
          'warn',
          `${err.message}: connecting again in ${Math.ceil(asked / 1000)} s, as Berth asked`,
        );
      } else logLine('warn', err instanceof Error ? err.message : String(err));
    }
    const next = nextDialDelayMs(attempt, lostAt === null ? null : Date.now() - lostAt);
    if (next.backingOff) attempt++;
    await sleep(asked ?? next.delayMs, undefined, { signal }).catch(() => undefined);
  }
  return 0;
}
