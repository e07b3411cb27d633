import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { EnrollmentTokenResponse, Host } from '@berth/contracts';
import { exitedEarly, spawnAgent, type AgentProcess } from './agent-process.js';
import type { apiClient } from './api.js';
import { rigSocketPath } from './rig.js';
import { waitFor } from './wait.js';

export interface AgentHost {
  host: Host;
  agent: AgentProcess;
  /** The agent's data dir: the caller removes it after killing the agent. */
  dataDir: string;
}

/**
 * Enrolls an agent process on the rig's plain engine into the test app listening at `base`
 * (test/listen.ts) and waits for its host `name` online; `env` adds to the agent's environment
 * (BERTH_AGENT_READ_ONLY). An agent that exits first fails it with its own log, and is then
 * cleaned up here, since the caller never gets it. Call buildAgent() once before.
 */
export async function enrollAgentHost(
  api: ReturnType<typeof apiClient>,
  base: string,
  name: string,
  env: Record<string, string> = {},
): Promise<AgentHost> {
  const { token } = (await api.post<EnrollmentTokenResponse>('/agents/enrollment-tokens')).body;
  const dataDir = mkdtempSync(join(tmpdir(), 'berth-agent-'));
  const agent = spawnAgent({
    BERTH_URL: base,
    BERTH_AGENT_TOKEN: token,
    BERTH_AGENT_DATA_DIR: dataDir,
    BERTH_AGENT_DOCKER_SOCKET: rigSocketPath('plain'),
    BERTH_AGENT_NAME: name,
    ...env,
  });
  try {
    const host = await Promise.race([
      waitFor(
        `${name} online`,
        async () =>
          (await api.get<Host[]>('/hosts')).body.find(
            (h) => h.name === name && h.status === 'online',
          ),
        30_000,
      ),
      exitedEarly(agent),
    ]);
    return { host, agent, dataDir };
  } catch (err) {
    agent.child.kill('SIGKILL');
    rmSync(dataDir, { recursive: true, force: true });
    throw err;
  }
}
