import { openEngine } from './dockerode-engine.js';
import type { EngineEndpoint } from './engine-client.js';
import { describeEngineError, EngineError, NOT_DOCKER } from './engine-errors.js';

export interface EngineProbe {
  docker_version: string;
  api_version: string;
  os: string;
}

/**
 * Connects and asks the engine for its version. Anything that is not a Docker engine's
 * version answer (another HTTP server, garbage) is an EngineError with a clear message.
 */
export async function probeEngine(
  endpoint: EngineEndpoint,
  timeoutMs: number,
): Promise<EngineProbe> {
  let version: unknown;
  try {
    version = await openEngine(endpoint, { timeoutMs }).version();
  } catch (err) {
    if (err instanceof Error && err.message.startsWith('Unsupported engine address'))
      throw new EngineError(err.message);
    const reason = describeEngineError(err, endpoint.url);
    throw new EngineError(reason === NOT_DOCKER ? notDockerAt(endpoint.url) : reason);
  }
  const v = version as { Version?: unknown; ApiVersion?: unknown; Os?: unknown } | null;
  if (typeof v?.Version !== 'string' || typeof v.ApiVersion !== 'string') {
    throw new EngineError(notDockerAt(endpoint.url));
  }
  return {
    docker_version: v.Version,
    api_version: v.ApiVersion,
    os: typeof v.Os === 'string' ? v.Os : 'unknown',
  };
}

/** The status reason, with the address the user just typed (Test Connection). */
const notDockerAt = (url: string) => `${NOT_DOCKER} at ${url}`;
