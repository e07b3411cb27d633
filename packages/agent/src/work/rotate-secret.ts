import { readAgentNewSecret } from '@berth/contracts/agent-wire';
import type { AgentHandler } from '../agent-api.js';
import type { AgentConfig } from '../config.js';
import { writeSecret } from '../secret-file.js';
import { parseBody } from './parse-body.js';

/**
 * `POST /v1/secret`: Berth rotates this agent's secret. The new one is on disk before the
 * answer (Berth swaps its hash only then), and the running connection goes on; the next
 * dial reads it from there.
 */
export const rotateSecretHandler =
  (config: AgentConfig): AgentHandler =>
  async (body) => {
    const { secret } = parseBody(readAgentNewSecret, body);
    await writeSecret(config.dataDir, secret);
    return { ok: true };
  };
