import { containerKey, type UpdatesSummary } from '@berth/contracts';
import type Docker from 'dockerode';
import { conflict } from '../../platform/http-errors.js';
import type { ContainerSnapshot } from '../monitor/index.js';
import { checkImage, type ImageCheck } from './image-check.js';
import type { UpdatesStore } from './updates.store.js';

/**
 * Image update status per container: checks on demand (batch check-updates) and the summary
 * the screens count. Scheduled checks, tracking levels and applying updates come with the
 * updates issue.
 */
export class UpdatesService {
  constructor(private readonly store: UpdatesStore) {}

  /** Checks one container's image against its registry (through its engine) and records it. */
  async check(c: ContainerSnapshot, docker: Docker | null): Promise<ImageCheck> {
    if (docker === null) throw conflict(`Host ${c.hostName} is offline`);
    let result: ImageCheck;
    try {
      const { Image: imageId } = await docker.getContainer(c.fullId).inspect();
      result = await checkImage(docker, c.image, imageId);
    } catch (err) {
      const reason = (err as { json?: { message?: unknown } }).json?.message;
      throw conflict(
        `Could not check ${c.image}: ${typeof reason === 'string' ? reason : String(err)}`,
      );
    }
    const checked = result.kind === 'checked' ? result : null;
    await this.store.save({
      host_id: c.hostId,
      container_name: c.name,
      container_id: c.id,
      image: c.image,
      current_digest: checked?.currentDigest ?? null,
      latest_digest: checked?.latestDigest ?? null,
      update_available: checked?.updateAvailable === true ? 1 : 0,
      checked_at: new Date().toISOString(),
    });
    return result;
  }

  async summary(): Promise<UpdatesSummary> {
    const rows = await this.store.withUpdates();
    return {
      total_updates: rows.length,
      containers_with_updates: rows.map((r) => containerKey(r.host_id, r.container_id)),
    };
  }

  /** Containers with an update waiting, per host. */
  async countsByHost(): Promise<Map<string, number>> {
    const counts = new Map<string, number>();
    for (const row of await this.store.withUpdates()) {
      counts.set(row.host_id, (counts.get(row.host_id) ?? 0) + 1);
    }
    return counts;
  }
}
