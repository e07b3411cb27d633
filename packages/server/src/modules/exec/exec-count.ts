import type { Engine } from '../../docker/index.js';

/**
 * How many of a container's exec instances still run, as the engine reports them (its
 * ExecIDs, each inspected): what the tests and the bench count to find orphaned shells.
 */
export async function runningExecs(engine: Engine, containerId: string): Promise<number> {
  const ids = await engine.containerExecIds(containerId);
  const states = await Promise.all(
    ids.map((id) =>
      // An exec the engine forgot between the two calls no longer runs.
      engine.inspectExec(id).catch(() => ({ running: false })),
    ),
  );
  return states.filter((s) => s.running).length;
}
