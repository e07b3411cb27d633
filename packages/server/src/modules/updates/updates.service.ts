import type { UpdatesSummary } from '@berth/contracts';
import type { UpdatesStore } from './updates.store.js';

/** Image update status; the checker that fills it arrives with the updates issue. */
export class UpdatesService {
  constructor(private readonly store: UpdatesStore) {}

  async summary(): Promise<UpdatesSummary> {
    const rows = await this.store.withUpdates();
    return {
      total_updates: rows.length,
      containers_with_updates: rows.map((r) => `${r.host_id}:${r.container_id}`),
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
