import {
  AGENT_TOKEN_HEADER,
  agentEnrollResponseSchema,
  type AgentEnrollPayload,
  type AgentEnrollResponse,
} from '@berth/contracts/agents';
import type { AgentConfig } from './config.js';
import { readSecret, writeSecret } from './secret-file.js';
const ENROLL_TIMEOUT_MS = 15_000;

/**
 * The agent's secret: read from its data dir, or, on its first start, traded for the
 * enrollment token and written there (owner-only) before it is used.
 */
export async function agentSecret(config: AgentConfig, version: string): Promise<string> {
  const stored = await readSecret(config.dataDir);
  if (stored !== null) return stored;
  if (config.token === null)
    throw new Error(`No secret in ${config.dataDir} and no BERTH_AGENT_TOKEN to enroll with`);
  const { secret } = await enroll(config, config.token, { name: config.name, version });
  await writeSecret(config.dataDir, secret);
  return secret;
}

async function enroll(
  config: AgentConfig,
  token: string,
  payload: AgentEnrollPayload,
): Promise<AgentEnrollResponse> {
  const res = await fetch(config.enrollUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/json', [AGENT_TOKEN_HEADER]: token },
    body: JSON.stringify(payload),
    signal: AbortSignal.timeout(ENROLL_TIMEOUT_MS),
  });
  if (res.status !== 201) {
    const body = (await res.json().catch(() => null)) as { detail?: unknown } | null;
    const detail = typeof body?.detail === 'string' ? `: ${body.detail}` : '';
    throw new Error(`Berth refused the enrollment (${res.status})${detail}`);
  }
  return agentEnrollResponseSchema.parse(await res.json());
}
