import {
  containerKey,
  parseContainerKey,
  type FloatingTagMode,
  type UpdatePolicyValue,
  type UpdatesSummary,
  type UpdateStatus,
} from '@berth/contracts';
import { detectChangelog, detectRegistryPage } from './links.js';
import { validateUpdate } from './policies.js';
import { COMPOSE_LABEL, type UpdatesContext } from './updates-context.js';

/** What a container's update status shows, its per-container settings, and the summary. */
export class UpdateStatusView {
  constructor(private readonly ctx: UpdatesContext) {}

  async status(hostId: string, containerId: string): Promise<UpdateStatus> {
    const c = this.ctx.find(hostId, containerId);
    const store = this.ctx.store;
    const [row, config, patterns] = await Promise.all([
      store.get(c.hostId, c.name),
      store.getConfig(c.hostId, c.name),
      store.policies(),
    ]);
    const policy = (config?.update_policy ?? null) as UpdatePolicyValue | null;
    const changelog = config?.changelog_url ?? null;
    const registryPage = config?.registry_page_url ?? null;
    const detectedChangelog = changelog === null ? detectChangelog(c.image, c.labels) : null;
    const current = row !== undefined && row.image === c.image ? row : undefined;
    return {
      update_available: current?.update_available === 1,
      last_checked_at: current?.checked_at ?? null,
      current_image: c.image,
      current_digest: current?.current_digest ?? null,
      latest_image: current?.latest_image ?? null,
      latest_digest: current?.latest_digest ?? null,
      floating_tag_mode: this.ctx.modeOf(c),
      auto_update_enabled: this.ctx.autoEnabled(c),
      update_policy: policy,
      changelog_url: changelog ?? detectedChangelog,
      changelog_source:
        changelog !== null ? 'manual' : detectedChangelog !== null ? 'auto-detected' : 'failed',
      registry_page_url: registryPage ?? detectRegistryPage(c.image),
      registry_page_source:
        registryPage !== null ? 'manual' : detectRegistryPage(c.image) !== null ? 'auto' : null,
      is_compose_container: c.labels[COMPOSE_LABEL] !== undefined,
      skip_compose_enabled: this.ctx.r.settings.get().skip_compose_containers,
      validation_info: validateUpdate({
        name: c.name,
        image: c.image,
        labels: c.labels,
        policy,
        patterns,
      }),
      last_error: current?.last_error ?? null,
      failed_digest: row?.failed_digest ?? null,
      previous_image: row?.previous_image ?? null,
      updating: this.ctx.isUpdating(c.hostId, c.name),
    };
  }

  async setConfig(
    hostId: string,
    containerId: string,
    body: {
      auto_update_enabled?: boolean | undefined;
      floating_tag_mode?: FloatingTagMode | undefined;
      changelog_url?: string | null | undefined;
      registry_page_url?: string | null | undefined;
    },
    username: string,
  ): Promise<UpdateStatus> {
    const c = this.ctx.find(hostId, containerId);
    if (body.auto_update_enabled !== undefined || body.floating_tag_mode !== undefined) {
      await this.ctx.r.setAutoUpdate(
        c.hostId,
        c.id,
        body.auto_update_enabled ?? this.ctx.autoEnabled(c),
        body.floating_tag_mode ?? this.ctx.modeOf(c),
        username,
      );
    }
    if (body.changelog_url !== undefined || body.registry_page_url !== undefined) {
      const cur = await this.ctx.store.getConfig(c.hostId, c.name);
      await this.ctx.store.saveConfig({
        host_id: c.hostId,
        container_name: c.name,
        update_policy: cur?.update_policy ?? null,
        changelog_url:
          body.changelog_url === undefined ? (cur?.changelog_url ?? null) : body.changelog_url,
        registry_page_url:
          body.registry_page_url === undefined
            ? (cur?.registry_page_url ?? null)
            : body.registry_page_url,
        updated_at: new Date().toISOString(),
      });
    }
    return this.status(hostId, c.id);
  }

  async setPolicy(
    hostId: string,
    containerId: string,
    policy: UpdatePolicyValue | null,
    username: string,
  ): Promise<UpdateStatus> {
    const c = this.ctx.find(hostId, containerId);
    const cur = await this.ctx.store.getConfig(c.hostId, c.name);
    await this.ctx.store.saveConfig({
      host_id: c.hostId,
      container_name: c.name,
      update_policy: policy,
      changelog_url: cur?.changelog_url ?? null,
      registry_page_url: cur?.registry_page_url ?? null,
      updated_at: new Date().toISOString(),
    });
    await this.ctx.r.record({
      severity: 'info',
      category: 'container',
      event_type: 'settings_changed',
      title: `Container ${c.name}: update policy set to ${policy ?? 'global'} by ${username}`,
      host_id: c.hostId,
      host_name: c.hostName,
      container_id: containerKey(c.hostId, c.id),
      container_name: c.name,
      triggered_by: username,
    });
    return this.status(hostId, c.id);
  }

  async summary(): Promise<UpdatesSummary> {
    const { fleet } = this.ctx.r;
    const keys: string[] = [];
    for (const row of await this.ctx.store.all()) {
      if (row.update_available !== 1) continue;
      const c = fleet.containerByName(row.host_id, row.container_name);
      if (c === undefined || c.image !== row.image) continue;
      keys.push(containerKey(row.host_id, c.id));
    }
    return { total_updates: keys.length, containers_with_updates: keys };
  }

  /** Containers with an update waiting, per host. */
  async countsByHost(): Promise<Map<string, number>> {
    const counts = new Map<string, number>();
    for (const key of (await this.summary()).containers_with_updates) {
      const hostId = parseContainerKey(key)?.hostId;
      if (hostId !== undefined) counts.set(hostId, (counts.get(hostId) ?? 0) + 1);
    }
    return counts;
  }
}
