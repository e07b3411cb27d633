import { createEngineClient, type EngineEndpoint } from './engine-client.js';
import { describeEngineError, EngineError } from './engine-errors.js';

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
    const docker = createEngineClient(endpoint, { timeoutMs });
    version = await docker.version();
  } catch (err) {
    throw new EngineError(
      err instanceof Error && err.message.startsWith('Unsupported engine address')
        ? err.message
        : describeEngineError(err, endpoint.url),
    );
  }
  const v = version as { Version?: unknown; ApiVersion?: unknown; Os?: unknown } | null;
  if (typeof v?.Version !== 'string' || typeof v.ApiVersion !== 'string') {
    throw new EngineError(`${endpoint.url} answered, but it is not a Docker engine`);
  }
  return {
    docker_version: v.Version,
    api_version: v.ApiVersion,
    os: typeof v.Os === 'string' ? v.Os : 'unknown',
  };
}
