import { randomUUID } from 'node:crypto';
import type { HostPayload, TestConnectionResponse } from '@berth/contracts';
import type { FastifyBaseLogger } from 'fastify';
import type { EngineDialer, EngineEndpoint } from '../../docker/index.js';
import { badRequest, notFound } from '../../platform/http-errors.js';

/** An agent host comes from its agent's enrollment; its address is the agent's id, for good. */
const AGENT_URL_FIXED = "url: An agent host's address is its agent's and cannot change";
import type { SecretBox } from '../../platform/secret-box.js';
import { suggestTags } from '../../platform/tag-suggestions.js';
import type { EventsService } from '../events/index.js';
import { AGENT_URL_SCHEME, agentHostUrl, isAgentHostUrl, MAX_HOST_TAGS } from '@berth/contracts';
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
    private readonly probe: ProbeEngine,
    private readonly log: FastifyBaseLogger | null = null,
    /** How an agent host's engine is reached: through its agent's live connection. */
    private readonly dialAgent: ((agentId: string) => EngineDialer) | null = null,
  ) {}

  /** Hosts added, changed and removed, announced as soon as the store has them. */
  on<E extends HostEvent>(event: E, listener: HostListener<E>): () => void {
    return this.emitter.on(event, listener);
  }

  /** Every registered host as stored; container-view adds what is live about each. */
  async list(): Promise<HostRow[]> {
    return this.store.list();
  }

  async get(id: string): Promise<HostRow> {
    return this.rowOrThrow(id);
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
    if (row.url.startsWith(AGENT_URL_SCHEME) && this.dialAgent !== null)
      return { url: row.url, dial: this.dialAgent(row.url.slice(AGENT_URL_SCHEME.length)) };
    const [ca, cert, key] = [row.tls_ca, row.tls_cert, row.tls_key].map((v) =>
      this.secrets.openNullable(v),
    );
    return { url: row.url, tls: ca && cert && key ? { ca, cert, key } : null };
  }

  async create(payload: HostPayload, actor: Actor): Promise<HostRow> {
    if (isAgentHostUrl(payload.url))
      throw badRequest('url: An agent host is added by enrolling its agent (Add Host → Agent)');
    return this.insert(payload, actor);
  }

  private async insert(payload: HostPayload, actor: Actor): Promise<HostRow> {
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
    this.emitter.emit('hostAdded', { host: registeredHost(row), target: this.targetOf(row) });
    await this.hostEvent(row, 'host_added', `Host ${row.name} added`, actor);
    return row;
  }

  /** The host of a newly enrolled agent: named as the agent asked, no tags yet. */
  createAgentHost(name: string, agentId: string, actor: Actor): Promise<HostRow> {
    const url = agentHostUrl(agentId);
    const none = { tls_ca: null, tls_cert: null, tls_key: null };
    return this.insert({ name, url, description: null, tags: [], ...none }, actor);
  }

  /** Null certificates keep the stored ones; a new URL must be free. */
  async update(id: string, payload: HostPayload, actor: Actor): Promise<HostRow> {
    const current = await this.rowOrThrow(id);
    if ((isAgentHostUrl(current.url) || isAgentHostUrl(payload.url)) && payload.url !== current.url)
      throw badRequest(AGENT_URL_FIXED);
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
    this.changed(row, current);
    await this.hostEvent(row, 'host_updated', `Host ${row.name} updated`, actor);
    return row;
  }

  /** Removes the host; its events stay in the log. Followers of `hostRemoved` do the rest. */
  async remove(id: string, actor: Actor): Promise<void> {
    const row = await this.rowOrThrow(id);
    await this.store.delete(id);
    this.emitter.emit('hostRemoved', { host: registeredHost(row) });
    await this.hostEvent(row, 'host_removed', `Host ${row.name} removed`, actor);
  }

  /**
   * Connects with the payload's settings. Certificates left null are taken from the
   * stored host with the same URL (the edit dialog sends null for unreplaced ones).
   */
  async testConnection(payload: HostPayload): Promise<TestConnectionResponse> {
    const stored = await this.store.findByUrl(payload.url);
    const storedEndpoint = stored ? this.endpointOf(stored) : null;
    // An agent host is tested through its agent's live connection, as the monitor reaches it.
    if (isAgentHostUrl(payload.url)) {
      if (storedEndpoint === null) throw badRequest('url: No agent host has this address');
      return this.probed(storedEndpoint);
    }
    const ca = payload.tls_ca ?? storedEndpoint?.tls?.ca ?? null;
    const cert = payload.tls_cert ?? storedEndpoint?.tls?.cert ?? null;
    const key = payload.tls_key ?? storedEndpoint?.tls?.key ?? null;
    this.assertTlsComplete({ url: payload.url, tls_ca: ca, tls_cert: cert, tls_key: key });
    const tls = ca && cert && key ? { ca, cert, key } : null;
    return this.probed({ url: payload.url, tls });
  }

  private async probed(endpoint: EngineEndpoint): Promise<TestConnectionResponse> {
    try {
      const version = await this.probe(endpoint);
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
    this.changed({ ...row, ...changes }, row);
    return tags;
  }

  private changed(row: HostRow, before: HostRow): void {
    this.emitter.emit('hostChanged', {
      host: registeredHost(row),
      previous: registeredHost(before),
      target: this.targetOf(row),
    });
  }

  /** Host tags containing q, most used first. */
  async suggestTags(q: string, limit: number, reaches = (_hostId: string) => true) {
    const rows = (await this.store.list()).filter((row) => reaches(row.id));
    return suggestTags(rows.map(tagsOf), q, limit);
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
    if (given.length > 0 && isAgentHostUrl(p.url)) {
      throw badRequest('url: TLS certificates do not apply to an agent host');
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
