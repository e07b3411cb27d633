import type { ContainerSettingsRow, ContainerSettingsStore } from './container-settings.store.js';

const key = (hostId: string, name: string) => `${hostId}\u0000${name}`;

/**
 * Berth's per-container settings held in memory (every live update reads them), keyed by
 * host and container name so they follow a container that is recreated under the same name.
 */
export class ContainerSettings {
  private readonly rows = new Map<string, ContainerSettingsRow>();

  constructor(private readonly store: ContainerSettingsStore) {}

  async load(): Promise<void> {
    this.rows.clear();
    for (const row of await this.store.listAll())
      this.rows.set(key(row.host_id, row.container_name), row);
  }

  get(hostId: string, name: string): ContainerSettingsRow | undefined {
    return this.rows.get(key(hostId, name));
  }

  async save(row: ContainerSettingsRow): Promise<void> {
    await this.store.upsert(row);
    this.rows.set(key(row.host_id, row.container_name), row);
  }

  /** The host's rows went with it (foreign key cascade); drop them here too. */
  forgetHost(hostId: string): void {
    for (const [k, row] of this.rows) if (row.host_id === hostId) this.rows.delete(k);
  }
}
