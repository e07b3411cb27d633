import type { ContainerSnapshot } from '../monitor/index.js';

/** How long a start waits for a dependency's condition before it gives up on the container. */
export const DEPENDENCY_WAIT_MS = 120_000;

type Condition = 'service_started' | 'service_healthy' | 'service_completed_successfully';

/** `db:service_healthy:true,cache:service_started:false` → each service and its condition. */
export function dependencyConditions(
  label: string | undefined,
): { service: string; condition: Condition }[] {
  if (label === undefined || label.trim() === '') return [];
  return label.split(',').flatMap((part) => {
    const [service = '', condition = 'service_started'] = part.trim().split(':');
    if (service === '') return [];
    const known =
      condition === 'service_healthy' || condition === 'service_completed_successfully'
        ? condition
        : 'service_started';
    return [{ service, condition: known }];
  });
}

/** Why `c` is not yet what the condition asks of it, or null when it is. */
function unmet(c: ContainerSnapshot, condition: Condition): string | null {
  if (condition === 'service_completed_successfully')
    return c.state === 'exited' && c.exitCode === 0 ? null : `${c.name} has not completed`;
  if (c.state !== 'running') return `${c.name} is not running`;
  // Without a HEALTHCHECK compose refuses the condition; running is all Berth can wait for.
  if (condition === 'service_healthy' && c.health !== null && c.health !== 'healthy')
    return `${c.name} is not healthy`;
  return null;
}

/**
 * Before a start: waits, as compose does, until each dependency named with service_healthy is
 * healthy and each named with service_completed_successfully has exited 0 (service_started
 * needs nothing more: the order already started it). Reads the monitor's picture once a
 * second. Answers null when ready, or why not once `timeoutMs` passed.
 */
export async function waitForDependencies(opts: {
  dependsOn: string | undefined;
  /** The dependency's containers as the monitor holds them now. */
  containersOf: (service: string) => ContainerSnapshot[];
  timeoutMs?: number;
  pollMs?: number;
}): Promise<string | null> {
  const waits = dependencyConditions(opts.dependsOn).filter(
    (d) => d.condition !== 'service_started',
  );
  if (waits.length === 0) return null;
  const deadline = Date.now() + (opts.timeoutMs ?? DEPENDENCY_WAIT_MS);
  for (;;) {
    const why = waits
      .flatMap((d) => opts.containersOf(d.service).map((c) => unmet(c, d.condition)))
      .filter((w): w is string => w !== null)[0];
    if (why === undefined) return null;
    if (Date.now() >= deadline)
      return `${why} after ${Math.round((opts.timeoutMs ?? DEPENDENCY_WAIT_MS) / 1000)} s`;
    await new Promise((r) => setTimeout(r, opts.pollMs ?? 1000));
  }
}
