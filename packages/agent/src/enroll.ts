import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import {
  AGENT_TOKEN_HEADER,
  agentEnrollResponseSchema,
  type AgentEnrollPayload,
  type AgentEnrollResponse,
} from '@berth/contracts/agents';
import type { AgentConfig } from './config.js';

const SECRET_FILE = 'secret';
const ENROLL_TIMEOUT_MS = 15_000;

/**
 * The agent's secret: read from its data dir, or, on its first start, traded for the
 * enrollment token and written there (owner-only) before it is used.
 */
export async function agentSecret(config: AgentConfig, version: string): Promise<string> {
  const path = join(config.dataDir, SECRET_FILE);
  const stored = await readFile(path, 'utf8').catch(() => null);
  if (stored !== null && stored.trim() !== '') return stored.trim();
  if (config.token === null)
    throw new Error(`No secret in ${config.dataDir} and no BERTH_AGENT_TOKEN to enroll with`);
  const { secret } = await enroll(config, config.token, { name: config.name, version });
  await mkdir(config.dataDir, { recursive: true, mode: 0o700 });
  await writeFile(`${path}.tmp`, secret, { mode: 0o600 });
  await rename(`${path}.tmp`, path);
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
