import { randomUUID } from 'node:crypto';
import type { Host, HostPayload, TestConnectionResponse } from '@berth/contracts';
import type { FastifyBaseLogger } from 'fastify';
import type { EngineEndpoint } from '../../docker/index.js';
import { badRequest, notFound } from '../../platform/http-errors.js';
import type { LiveHub } from '../../platform/live-hub.js';
import type { SecretBox } from '../../platform/secret-box.js';
import { suggestTags } from '../../platform/tag-suggestions.js';
import type { EventsService } from '../events/index.js';
import { MAX_HOST_TAGS } from '@berth/contracts';
import { TypedEmitter } from '../../platform/typed-emitter.js';
import {
  registeredHost,
  tagsOf,
  type HostEvent,
  type HostEventMap,
  type HostEvents,
  type HostListener,
} from './host-events.js';
import { engineIdentityOf } from './engine-identity.js';
import type { HostRow, HostsStore } from './hosts.store.js';

/** A host as the monitor needs it: a ready endpoint, its TLS material already unsealed. */
export interface EngineTarget {
  id: string;
  name: string;
  endpoint: EngineEndpoint;
  /** Seconds (fractional) of the newest engine event already processed. */
  lastEventAt: number | null;
}

/** What the hosts service needs from the monitor: live state in, lifecycle out. */
export interface HostRuntimeSource {
  /** Live fields of a host (status, stats, counts); null before its first contact. */
  runtimeOf(hostId: string): HostRuntime | null;
  hostAdded(target: EngineTarget): void;
  hostChanged(target: EngineTarget): void;
  hostRemoved(hostId: string): void;
}

export type HostRuntime = Pick<
  Host,
  | 'status'
  | 'stats'
  | 'sparklines'
  | 'containers'
  | 'container_count'
  | 'last_checked'
  | 'daemon_started_at'
  | 'uptime_source'
  | 'uptime_note'
> & { error: string | null };

/** Per-host counts kept by other domains (alerts, updates), and what a delete does to them. */
export interface HostSideCounts {
  alertsByHost(): Promise<Map<string, Host['alerts']>>;
  updatesByHost(): Promise<Map<string, number>>;
  resolveAlertsOf(hostId: string): Promise<number>;
}

interface SideCountsOfHost {
  alerts: Host['alerts'];
  updates_available: number;
}

const NO_SIDE_COUNTS: SideCountsOfHost = { alerts: { open: 0, snoozed: 0 }, updates_available: 0 };

export type ProbeEngine = (
  endpoint: EngineEndpoint,
) => Promise<{ docker_version: string; api_version: string }>;

interface Actor {
  username: string;
}

/** Registered hosts: validation beyond the schema, sealed TLS material, lifecycle events. */
export class HostsService implements HostEvents {
  private readonly emitter = new TypedEmitter<HostEventMap>((err) =>
    this.log?.error({ err }, 'host listener failed'),
  );

  constructor(
    private readonly store: HostsStore,
    private readonly secrets: SecretBox,
    private readonly events: EventsService,
    private readonly hub: LiveHub,
    private readonly probe: ProbeEngine,
    private readonly sideCounts: HostSideCounts | null = null,
    private runtime: HostRuntimeSource | null = null,
    private readonly log: FastifyBaseLogger | null = null,
  ) {}

  /** The monitor registers itself once it exists (it needs this service first). */
  attachRuntime(runtime: HostRuntimeSource): void {
    this.runtime = runtime;
  }

  /** Hosts added, changed and removed, announced as soon as the store has them. */
  on<E extends HostEvent>(event: E, listener: HostListener<E>): () => void {
    return this.emitter.on(event, listener);
  }

  async list(): Promise<Host[]> {
    const [rows, counts] = await Promise.all([this.store.list(), this.sideCountsById()]);
    return rows.map((row) => this.toHostResponse(row, counts(row.id)));
  }

  async get(id: string): Promise<Host> {
    const [row, counts] = await Promise.all([this.rowOrThrow(id), this.sideCountsById()]);
    return this.toHostResponse(row, counts(id));
  }

  private async sideCountsById(): Promise<(id: string) => SideCountsOfHost> {
    if (this.sideCounts === null) return () => NO_SIDE_COUNTS;
    const [alerts, updates] = await Promise.all([
      this.sideCounts.alertsByHost(),
      this.sideCounts.updatesByHost(),
    ]);
    return (id) => ({
      alerts: alerts.get(id) ?? NO_SIDE_COUNTS.alerts,
      updates_available: updates.get(id) ?? 0,
    });
  }

  async rows(): Promise<HostRow[]> {
    return this.store.list();
  }

  /** Every registered host as the monitor connects to it. */
  async engineTargets(): Promise<EngineTarget[]> {
    return (await this.store.list()).map((row) => this.targetOf(row));
  }

  private targetOf(row: HostRow): EngineTarget {
    return {
      id: row.id,
      name: row.name,
      endpoint: this.endpointOf(row),
      lastEventAt: row.last_event_at,
    };
  }

  /** The engine endpoint of a host, with its TLS material unsealed. */
  private endpointOf(row: HostRow): EngineEndpoint {
    const [ca, cert, key] = [row.tls_ca, row.tls_cert, row.tls_key].map((v) =>
      this.secrets.openNullable(v),
    );
    return { url: row.url, tls: ca && cert && key ? { ca, cert, key } : null };
  }

  async create(payload: HostPayload, actor: Actor): Promise<Host> {
    await this.assertUrlFree(payload.url, payload.tls_ca !== null, null);
    this.assertTlsComplete(payload);
    const now = new Date().toISOString();
    const row: HostRow = {
      id: randomUUID(),
      name: payload.name,
      url: payload.url,
      description: payload.description,
      tags: JSON.stringify(payload.tags),
      tls_ca: this.secrets.sealNullable(payload.tls_ca),
      tls_cert: this.secrets.sealNullable(payload.tls_cert),
      tls_key: this.secrets.sealNullable(payload.tls_key),
      os_version: null,
      docker_version: null,
      num_cpus: null,
      total_memory: null,
      daemon_started_at: null,
      last_checked: null,
      last_event_at: null,
      created_at: now,
      updated_at: now,
    };
    await this.store.insert(row);
    this.runtime?.hostAdded(this.targetOf(row));
    this.emitter.emit('hostAdded', { host: registeredHost(row) });
    const host = this.toHostResponse(row);
    this.hub.publish({ type: 'host_added', data: { host } });
    await this.hostEvent(row, 'host_added', `Host ${row.name} added`, actor);
    return host;
  }

  /** Null certificates keep the stored ones; a new URL must be free. */
  async update(id: string, payload: HostPayload, actor: Actor): Promise<Host> {
    const current = await this.rowOrThrow(id);
    await this.assertUrlFree(payload.url, (payload.tls_ca ?? current.tls_ca) !== null, id);
    const keep = (next: string | null, stored: string | null) =>
      next === null ? stored : this.secrets.seal(next);
    const changes = {
      name: payload.name,
      url: payload.url,
      description: payload.description,
      tags: JSON.stringify(payload.tags),
      tls_ca: keep(payload.tls_ca, current.tls_ca),
      tls_cert: keep(payload.tls_cert, current.tls_cert),
      tls_key: keep(payload.tls_key, current.tls_key),
      updated_at: new Date().toISOString(),
    };
    await this.store.update(id, changes);
    const row = { ...current, ...changes };
    this.runtime?.hostChanged(this.targetOf(row));
    this.changed(row, current);
    await this.hostEvent(row, 'host_updated', `Host ${row.name} updated`, actor);
    return this.toHostResponse(row);
  }

  /**
   * Removes the host and its container settings and resolves its open alerts; its events
   * stay in the log. Answers how many alerts were resolved.
   */
  async remove(id: string, actor: Actor): Promise<number> {
    const row = await this.rowOrThrow(id);
    await this.store.delete(id);
    const resolved = (await this.sideCounts?.resolveAlertsOf(id)) ?? 0;
    this.runtime?.hostRemoved(id);
    this.emitter.emit('hostRemoved', { host: registeredHost(row) });
    this.hub.publish({ type: 'host_removed', data: { host_id: id } });
    await this.hostEvent(row, 'host_removed', `Host ${row.name} removed`, actor);
    return resolved;
  }

  /**
   * Connects with the payload's settings. Certificates left null are taken from the
   * stored host with the same URL (the edit dialog sends null for unreplaced ones).
   */
  async testConnection(payload: HostPayload): Promise<TestConnectionResponse> {
    const stored = await this.store.findByUrl(payload.url);
    const storedEndpoint = stored ? this.endpointOf(stored) : null;
    const ca = payload.tls_ca ?? storedEndpoint?.tls?.ca ?? null;
    const cert = payload.tls_cert ?? storedEndpoint?.tls?.cert ?? null;
    const key = payload.tls_key ?? storedEndpoint?.tls?.key ?? null;
    this.assertTlsComplete({ url: payload.url, tls_ca: ca, tls_cert: cert, tls_key: key });
    const tls = ca && cert && key ? { ca, cert, key } : null;
    try {
      const version = await this.probe({ url: payload.url, tls });
      return { success: true, message: 'Connection successful', ...version };
    } catch (err) {
      throw badRequest(err instanceof Error ? err.message : 'Connection failed');
    }
  }

  async patchTags(id: string, add: string[], remove: string[]): Promise<string[]> {
    const row = await this.rowOrThrow(id);
    const removing = new Set(remove);
    const tags = [...new Set([...tagsOf(row), ...add])].filter((t) => !removing.has(t));
    if (tags.length > MAX_HOST_TAGS) {
      throw badRequest(`tags: A host can have at most ${MAX_HOST_TAGS} tags`);
    }
    const changes = { tags: JSON.stringify(tags), updated_at: new Date().toISOString() };
    await this.store.update(id, changes);
    this.runtime?.hostChanged(this.targetOf(row));
    this.changed({ ...row, ...changes }, row);
    return tags;
  }

  private changed(row: HostRow, before: HostRow): void {
    this.emitter.emit('hostChanged', {
      host: registeredHost(row),
      previous: registeredHost(before),
    });
  }

  /** Host tags containing q, most used first. */
  async suggestTags(q: string, limit: number): Promise<string[]> {
    return suggestTags((await this.store.list()).map(tagsOf), q, limit);
  }

  /** Persists what the monitor learnt about the engine, for display while offline. */
  async saveEngineFacts(
    id: string,
    facts: Partial<
      Pick<
        HostRow,
        | 'os_version'
        | 'docker_version'
        | 'num_cpus'
        | 'total_memory'
        | 'daemon_started_at'
        | 'last_checked'
        | 'last_event_at'
      >
    >,
  ): Promise<void> {
    await this.store.update(id, facts);
  }

  toHostResponse(row: HostRow, side: SideCountsOfHost = NO_SIDE_COUNTS): Host {
    const live = this.runtime?.runtimeOf(row.id) ?? null;
    const tls = row.tls_ca !== null && row.tls_cert !== null && row.tls_key !== null;
    return {
      id: row.id,
      name: row.name,
      url: row.url,
      status: live?.status ?? 'offline',
      error: live?.error ?? null,
      security_status: securityOf(row.url, tls),
      tags: tagsOf(row),
      description: row.description,
      os_version: row.os_version,
      docker_version: row.docker_version,
      num_cpus: row.num_cpus,
      total_memory: row.total_memory,
      last_checked: live?.last_checked ?? row.last_checked,
      // The stored start is only a fact of the last contact: an engine that does not answer
      // has no uptime to show.
      daemon_started_at: live?.daemon_started_at ?? null,
      uptime_source: live?.uptime_source ?? null,
      uptime_note: live?.uptime_note ?? 'Not connected to the engine yet',
      container_count: live?.container_count ?? 0,
      updates_available: side.updates_available,
      alerts: side.alerts,
      stats: live?.stats ?? null,
      sparklines: live?.sparklines ?? null,
      containers: live?.containers ?? { total: 0, running: 0, stopped: 0 },
    };
  }

  private async rowOrThrow(id: string): Promise<HostRow> {
    const row = await this.store.get(id);
    if (row === undefined) throw notFound(`Host ${id} not found`);
    return row;
  }

  /** The registered host (other than `selfId`) that reaches the engine `url` names. */
  async sameEngine(url: string, tls: boolean, selfId: string | null = null) {
    const identity = await engineIdentityOf(url, tls);
    for (const row of await this.store.list()) {
      if (row.id === selfId) continue;
      if (row.url === url) return row;
      const stored = await engineIdentityOf(row.url, row.tls_ca !== null);
      if (identity !== null && stored === identity) return row;
    }
    return undefined;
  }

  /** One host per engine, however its address is spelt (else its containers count twice). */
  private async assertUrlFree(url: string, tls: boolean, selfId: string | null): Promise<void> {
    const other = await this.sameEngine(url, tls, selfId);
    if (other === undefined) return;
    const same = other.url === url ? '' : ` (the same engine as ${url})`;
    throw badRequest(`url: Host with URL '${other.url}' already exists as '${other.name}'${same}`);
  }

  /** mTLS needs all three of CA, client certificate and key, or none. */
  private assertTlsComplete(p: Pick<HostPayload, 'url' | 'tls_ca' | 'tls_cert' | 'tls_key'>): void {
    const given = [p.tls_ca, p.tls_cert, p.tls_key].filter((v) => v !== null && v.trim() !== '');
    if (given.length > 0 && given.length < 3) {
      throw badRequest('All three certificates are required for mTLS connection');
    }
    if (given.length > 0 && p.url.startsWith('unix://')) {
      throw badRequest('url: TLS certificates do not apply to a unix:// socket');
    }
  }

  private async hostEvent(row: HostRow, type: string, title: string, actor: Actor): Promise<void> {
    await this.events.record({
      severity: 'info',
      category: 'host',
      event_type: type,
      title,
      host_id: row.id,
      host_name: row.name,
      triggered_by: actor.username,
    });
  }
}

/** Unix sockets never cross a network, so they count as secure, like TLS and https. */
function securityOf(url: string, tls: boolean): Host['security_status'] {
  if (tls || url.startsWith('https://') || url.startsWith('unix://')) return 'secure';
  return 'insecure';
}
