import { containerNameKey } from '@berth/contracts';
import type { ContainerSettingsRow, ContainerSettingsStore } from './container-settings.store.js';

/**
 * Berth's per-container settings held in memory (every live update reads them), keyed by
 * host and container name so they follow a container that is recreated under the same name.
 */
export class ContainerSettings {
  private readonly byKey = new Map<string, ContainerSettingsRow>();

  constructor(private readonly store: ContainerSettingsStore) {}

  async load(): Promise<void> {
    this.byKey.clear();
    for (const row of await this.store.listAll())
      this.byKey.set(containerNameKey(row.host_id, row.container_name), row);
  }

  get(hostId: string, name: string): ContainerSettingsRow | undefined {
    return this.byKey.get(containerNameKey(hostId, name));
  }

  async save(row: ContainerSettingsRow): Promise<void> {
    await this.store.upsert(row);
    this.byKey.set(containerNameKey(row.host_id, row.container_name), row);
  }

  rows(): ContainerSettingsRow[] {
    return [...this.byKey.values()];
  }

  async markSeen(hostId: string, names: string[], at: string): Promise<void> {
    await this.store.markSeen(hostId, names, at);
    for (const name of names) {
      const row = this.byKey.get(containerNameKey(hostId, name));
      if (row !== undefined)
        this.byKey.set(containerNameKey(hostId, name), { ...row, last_seen_at: at });
    }
  }

  /** The host's rows went with it (foreign key cascade); drop them here too. */
  forgetHost(hostId: string): void {
    for (const [k, row] of this.byKey) if (row.host_id === hostId) this.byKey.delete(k);
  }
}
