import { statfs } from 'node:fs/promises';
import type { AgentHostMetrics } from '@berth/contracts';
import type { Engine } from '../../docker/index.js';
import type { EngineDisk } from './fleet.js';

export const DISK_UNAVAILABLE = 'The disk figure is not available for this host';

/**
 * The data root's filesystem usage, as `df` counts it (used over used + available to
 * users). Only a unix-socket engine runs on this machine, and only if its data root is
 * visible here can its disk be read; anything else says so instead of guessing.
 */
export async function measureEngineDisk(url: string, engine: Engine | null): Promise<EngineDisk> {
  if (!url.startsWith('unix://') || engine === null)
    return { unavailable: `${DISK_UNAVAILABLE} (only a local unix-socket engine can be measured)` };
  try {
    const path = (await engine.info()).DockerRootDir;
    if (path === undefined || path === '') return { unavailable: DISK_UNAVAILABLE };
    const fs = await statfs(path);
    const used = fs.blocks - fs.bfree;
    const total = used + fs.bavail;
    if (total <= 0) return { unavailable: DISK_UNAVAILABLE };
    return { percent: Math.round((used / total) * 1000) / 10, path };
  } catch {
    return { unavailable: `${DISK_UNAVAILABLE} (its data root is not visible to Berth)` };
  }
}

/** The figure an agent read on its host: the same percentage, or the agent's reason. */
export async function agentEngineDisk(read: Promise<AgentHostMetrics>): Promise<EngineDisk> {
  try {
    const { disk } = await read;
    if ('unavailable' in disk) return { unavailable: `${DISK_UNAVAILABLE} (${disk.unavailable})` };
    return {
      percent: Math.round((disk.used_bytes / disk.total_bytes) * 1000) / 10,
      path: disk.path,
    };
  } catch (err) {
    const why = err instanceof Error ? err.message : String(err);
    return { unavailable: `${DISK_UNAVAILABLE} (its agent did not answer: ${why})` };
  }
}
