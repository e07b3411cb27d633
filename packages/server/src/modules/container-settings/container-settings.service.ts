import {
  containerKey,
  DERIVED_TAG_PATTERN,
  MAX_CONTAINER_TAGS,
  type DesiredStateBody,
  type FloatingTagMode,
} from '@berth/contracts';
import { badRequest, notFound } from '../../platform/http-errors.js';
import type { EventsService } from '../events/index.js';
import type { Fleet } from '../monitor/index.js';
import type { ContainerSettings } from './container-settings.cache.js';
import type { ContainerSettingsRow } from './container-settings.store.js';
import { KeyedQueue } from './keyed-queue.js';

type Change = Partial<
  Pick<
    ContainerSettingsRow,
    | 'tags'
    | 'auto_restart'
    | 'desired_state'
    | 'web_ui_url'
    | 'auto_update_enabled'
    | 'floating_tag_mode'
  >
>;

type Decide = (row: ContainerSettingsRow) => {
  change: Change;
  title: string;
  message: string | null;
};

/** Tags, auto-restart, desired state and Web UI link of one container. */
export class ContainerSettingsService {
  private readonly queue = new KeyedQueue();

  constructor(
    private readonly fleet: Fleet,
    private readonly settings: ContainerSettings,
    private readonly events: EventsService,
  ) {}

  async patchTags(
    hostId: string,
    containerId: string,
    add: string[],
    remove: string[],
    username: string,
  ): Promise<string[]> {
    const updated = await this.update(hostId, containerId, username, (row) => {
      const removing = new Set(remove);
      const current = JSON.parse(row.tags) as string[];
      const tags = [...new Set([...current, ...add])].filter((t) => !removing.has(t));
      if (tags.length > MAX_CONTAINER_TAGS)
        throw badRequest(`tags: A container can have at most ${MAX_CONTAINER_TAGS} tags`);
      return {
        change: { tags: JSON.stringify(tags) },
        title: 'tags updated',
        message: [
          add.length > 0 ? `added ${add.join(', ')}` : '',
          remove.length > 0 ? `removed ${remove.join(', ')}` : '',
        ]
          .filter(Boolean)
          .join('; '),
      };
    });
    return (JSON.parse(updated.tags) as string[]).filter((t) => !DERIVED_TAG_PATTERN.test(t));
  }

  setAutoRestart(hostId: string, containerId: string, enabled: boolean, username: string) {
    return this.update(hostId, containerId, username, () => ({
      change: { auto_restart: enabled ? 1 : 0 },
      title: `auto-restart ${enabled ? 'enabled' : 'disabled'}`,
      message: null,
    }));
  }

  setAutoUpdate(
    hostId: string,
    containerId: string,
    enabled: boolean,
    mode: FloatingTagMode,
    username: string,
  ) {
    return this.update(hostId, containerId, username, () => ({
      change: { auto_update_enabled: enabled ? 1 : 0, floating_tag_mode: mode },
      title: enabled ? `auto-update enabled (${mode} mode)` : 'auto-update disabled',
      message: null,
    }));
  }

  setDesiredState(hostId: string, containerId: string, body: DesiredStateBody, username: string) {
    return this.update(hostId, containerId, username, () => ({
      change: {
        desired_state: body.desired_state,
        ...(body.web_ui_url === undefined ? {} : { web_ui_url: body.web_ui_url }),
      },
      title: `desired state set to ${body.desired_state}`,
      message: body.web_ui_url === undefined ? null : `Web UI: ${body.web_ui_url ?? 'none'}`,
    }));
  }

  /**
   * Unused tags go: a container nobody has seen since `cutoff` carries them for no one. The
   * rows of containers seen now are marked; hosts that are offline now are left alone (their
   * containers may well still be there). Answers how many containers lost their tags.
   */
  async pruneUnusedTags(cutoff: string, now = new Date().toISOString()): Promise<number> {
    const seen = new Map<string, string[]>();
    const stale: ContainerSettingsRow[] = [];
    for (const row of this.settings.rows()) {
      const host = this.fleet.host(row.host_id);
      if (host === undefined || host.status === 'offline') continue;
      const present = this.fleet.containerByName(row.host_id, row.container_name) !== undefined;
      // A row never marked (it predates the marking) starts its period now.
      if (present || row.last_seen_at === null) {
        seen.set(row.host_id, [...(seen.get(row.host_id) ?? []), row.container_name]);
      } else if (row.last_seen_at < cutoff && row.tags !== '[]') {
        stale.push(row);
      }
    }
    for (const [hostId, names] of seen) await this.settings.markSeen(hostId, names, now);
    for (const row of stale) await this.settings.save({ ...row, tags: '[]', updated_at: now });
    if (stale.length > 0) this.fleet.changed();
    return stale.length;
  }

  /**
   * Saves a change to the container's settings, records who made it and pushes it live.
   * Changes to one container run one after another: each reads what the previous one wrote
   * (two tag edits at once would otherwise both start from the same tags and one be lost).
   */
  private update(
    hostId: string,
    containerId: string,
    username: string,
    decide: Decide,
  ): Promise<ContainerSettingsRow> {
    return this.queue.run(containerKey(hostId, containerId), () =>
      this.apply(hostId, containerId, username, decide),
    );
  }

  private async apply(
    hostId: string,
    containerId: string,
    username: string,
    decide: Decide,
  ): Promise<ContainerSettingsRow> {
    if (this.fleet.host(hostId) === undefined) throw notFound('Host not found');
    const c = this.fleet.container(hostId, containerId);
    if (c === undefined) throw notFound('Container not found');
    const current: ContainerSettingsRow = this.settings.get(c.hostId, c.name) ?? {
      host_id: c.hostId,
      container_name: c.name,
      tags: '[]',
      auto_restart: null,
      desired_state: 'unspecified',
      web_ui_url: null,
      auto_update_enabled: 0,
      floating_tag_mode: 'exact',
      updated_at: '',
      last_seen_at: new Date().toISOString(),
    };
    const { change, title, message } = decide(current);
    const next = { ...current, ...change, updated_at: new Date().toISOString() };
    await this.settings.save(next);
    await this.events.record({
      severity: 'info',
      category: 'container',
      event_type: 'settings_changed',
      title: `Container ${c.name}: ${title} by ${username}`,
      message,
      host_id: c.hostId,
      host_name: c.hostName,
      container_id: containerKey(c.hostId, c.id),
      container_name: c.name,
      triggered_by: username,
    });
    this.fleet.changed();
    return next;
  }
}
