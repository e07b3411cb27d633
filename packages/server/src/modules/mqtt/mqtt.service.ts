import {
  containerKey,
  MQTT_PASSWORD_MASK,
  type LiveMessage,
  type MqttIntegration,
  type MqttSettings,
  type MqttSettingsUpdate,
  type MqttStatus,
  type UpdatesSummary,
} from '@berth/contracts';
import type { FastifyBaseLogger } from 'fastify';
import type { SecretBox } from '../../platform/secret-box.js';
import type { ContainersService } from '../containers/index.js';
import type { EventInput } from '../events/index.js';
import type { Fleet } from '../monitor/index.js';
import { CommandHandler } from './command-handler.js';
import { MqttConnection } from './connection.js';
import type { CommandDeps } from './command-handler.js';
import { StatePublisher, type FleetPicture } from './publisher.js';
import { alertTopic, commandFilter } from './topics.js';
import { MQTT_DEFAULTS, type MqttStore, type StoredMqttSettings } from './mqtt.store.js';

export interface MqttDeps {
  store: MqttStore;
  box: SecretBox;
  fleet: Fleet;
  containers: Pick<ContainersService, 'act'>;
  record: (event: EventInput) => Promise<unknown>;
  /** Commands carried out are audited as MQTT's. */
  audit?: CommandDeps['audit'];
  updatesSummary: () => Promise<UpdatesSummary>;
  /** Every live message as it is published, browsers or not (alerts are taken from it). */
  tapLive: (listener: (message: LiveMessage) => void) => () => void;
  log: FastifyBaseLogger;
  /** Slightly moved CPU or memory figures wait at most this long (30 s). */
  staleMs?: number;
}

const PASS_SOON_MS = 50;
const PENDING_PASS_MS = 100;
const UPDATES_EVERY_MS = 60_000;
const DISABLED: MqttStatus = {
  state: 'disabled',
  connected: false,
  last_error: null,
  since: new Date(0).toISOString(),
  messages_published: 0,
};

/**
 * Berth on MQTT: retained state per host and container published on change, alerts as
 * events, Home Assistant discovery, and container commands (docs/decisions/027).
 */
export class MqttService {
  private settings: StoredMqttSettings | null = null;
  private conn: MqttConnection | null = null;
  private publisher: StatePublisher | null = null;
  private commands: CommandHandler;
  private updates = new Set<string>();
  private passTimer: NodeJS.Timeout | null = null;
  private updatesTimer: NodeJS.Timeout | null = null;
  private readonly off: (() => void)[] = [];
  private chain: Promise<void> = Promise.resolve();
  private disabledSince = new Date().toISOString();

  constructor(private readonly deps: MqttDeps) {
    this.commands = new CommandHandler({
      fleet: deps.fleet,
      containers: deps.containers,
      record: deps.record,
      audit: deps.audit,
      log: deps.log,
    });
  }

  async start(): Promise<void> {
    this.settings = await this.deps.store.read();
    const { fleet } = this.deps;
    this.off.push(
      fleet.on('statsSampled', () => this.pass()),
      fleet.on('containerChanged', () => this.passSoon()),
      fleet.on('hostStatusChanged', () => this.passSoon()),
      fleet.on('containersChanged', () => this.passSoon()),
      this.deps.tapLive((m) => this.onLive(m)),
    );
    this.updatesTimer = setInterval(() => this.refreshUpdates(), UPDATES_EVERY_MS);
    this.updatesTimer.unref();
    await this.apply(null);
  }

  async stop(): Promise<void> {
    for (const off of this.off.splice(0)) off();
    if (this.updatesTimer !== null) clearInterval(this.updatesTimer);
    if (this.passTimer !== null) clearTimeout(this.passTimer);
    await this.serial(() => this.disconnect(false));
  }

  get status(): MqttStatus {
    return this.conn?.status ?? { ...DISABLED, since: this.disabledSince };
  }

  view(): MqttIntegration {
    const s = this.settings ?? MQTT_DEFAULTS;
    const settings: MqttSettings = {
      enabled: s.enabled,
      broker_url: s.broker_url,
      username: s.username,
      password: s.password_sealed === null ? '' : MQTT_PASSWORD_MASK,
      topic_prefix: s.topic_prefix,
      discovery_enabled: s.discovery_enabled,
      discovery_prefix: s.discovery_prefix,
      allow_actions: s.allow_actions,
    };
    return { settings, status: this.status };
  }

  async update(body: MqttSettingsUpdate, username: string): Promise<MqttIntegration> {
    const before = this.settings ?? MQTT_DEFAULTS;
    const password_sealed =
      body.password === MQTT_PASSWORD_MASK
        ? before.password_sealed
        : body.password === ''
          ? null
          : this.deps.box.seal(body.password);
    const next: StoredMqttSettings = { ...body, password_sealed };
    await this.deps.store.write(next);
    this.settings = next;
    await this.apply(before);
    await this.deps.record({
      severity: 'info',
      category: 'system',
      event_type: 'settings_changed',
      title: `MQTT settings changed by ${username}`,
      message: next.enabled ? `Broker ${next.broker_url}` : 'MQTT is off',
      triggered_by: username,
    });
    return this.view();
  }

  /** Reconnects with the current settings; `before` says what to clean up on the broker. */
  private apply(before: StoredMqttSettings | null): Promise<void> {
    return this.serial(async () => {
      const s = this.settings;
      const moved =
        before !== null &&
        (s === null ||
          !s.enabled ||
          s.topic_prefix !== before.topic_prefix ||
          s.discovery_prefix !== before.discovery_prefix ||
          s.discovery_enabled !== before.discovery_enabled ||
          s.broker_url !== before.broker_url);
      await this.disconnect(moved);
      if (s === null || !s.enabled || s.broker_url === '') return;
      this.connect(s);
    });
  }

  private connect(s: StoredMqttSettings): void {
    let logged: string | null = null;
    const conn = new MqttConnection({
      url: s.broker_url,
      username: s.username,
      password: s.password_sealed === null ? null : this.deps.box.open(s.password_sealed),
      prefix: s.topic_prefix,
      onConnect: () => {
        conn.subscribe(commandFilter(s.topic_prefix));
        this.publisher?.reset();
        this.refreshUpdates();
        this.pass();
      },
      onMessage: (topic, payload) =>
        this.commands.handle(s.topic_prefix, s.allow_actions, topic, payload),
      onStatus: (status) => {
        this.deps.fleet.demandStats('mqtt', status.connected);
        // Each reason once, not once per retry.
        if (status.last_error !== null && status.last_error !== logged)
          this.deps.log.warn({ broker: s.broker_url }, `MQTT: ${status.last_error}`);
        logged = status.last_error;
      },
    });
    this.conn = conn;
    this.publisher = new StatePublisher(conn, {
      prefix: s.topic_prefix,
      discoveryPrefix: s.discovery_enabled ? s.discovery_prefix : null,
      staleMs: this.deps.staleMs ?? 30_000,
    });
  }

  /** Ends the connection (offline retained); `clear` first removes what it published. */
  private async disconnect(clear: boolean): Promise<void> {
    const conn = this.conn;
    if (conn === null) return;
    if (clear && conn.connected) this.publisher?.clearAll();
    this.conn = null;
    this.publisher = null;
    this.disabledSince = new Date().toISOString();
    this.deps.fleet.demandStats('mqtt', false);
    await conn.close();
  }

  private passSoon(ms = PASS_SOON_MS): void {
    if (this.passTimer !== null || this.conn === null) return;
    this.passTimer = setTimeout(() => {
      this.passTimer = null;
      this.pass();
    }, ms);
  }

  private pass(): void {
    if (this.publisher === null || this.conn?.connected !== true) return;
    try {
      this.publisher.pass(this.picture());
      // A first pass after a (re)connect sends in parts, one part per tenth of a second.
      if (this.publisher.pending) this.passSoon(PENDING_PASS_MS);
    } catch (err) {
      this.deps.log.warn({ err }, 'MQTT publish pass failed');
    }
  }

  /** The fleet as one pass publishes it. */
  picture(): FleetPicture {
    const { fleet } = this.deps;
    const hosts = fleet.hosts().map((h) => {
      const m = fleet.hostMetrics(h.id);
      return {
        id: h.id,
        name: h.name,
        status: h.status,
        cpu: m?.cpu_percent ?? null,
        mem: m?.mem_percent ?? null,
      };
    });
    const containers = fleet.containers().map((c) => {
      const stats = c.state === 'running' ? fleet.containerStats(c.hostId, c.id) : undefined;
      return {
        hostId: c.hostId,
        name: c.name,
        image: c.image,
        state: c.state,
        health: c.health,
        cpu: stats?.cpu_percent ?? null,
        memory: stats?.memory_usage ?? null,
        updateAvailable: this.updates.has(containerKey(c.hostId, c.id)),
      };
    });
    return { hosts, containers };
  }

  private refreshUpdates(): void {
    if (this.conn === null) return;
    this.deps
      .updatesSummary()
      .then((summary) => {
        const next = new Set(summary.containers_with_updates);
        const same = next.size === this.updates.size && [...next].every((k) => this.updates.has(k));
        this.updates = next;
        if (!same) this.passSoon();
      })
      .catch((err: unknown) => this.deps.log.warn({ err }, 'MQTT: reading updates failed'));
  }

  private onLive(message: LiveMessage): void {
    if (message.type === 'containers_update') return; // the hottest message: skip at once
    if (message.type !== 'alert_raised' && message.type !== 'alert_resolved') return;
    const conn = this.conn;
    if (conn === null || this.settings === null) return;
    const event = message.type === 'alert_raised' ? 'raised' : 'resolved';
    conn.publish(
      alertTopic(this.settings.topic_prefix),
      JSON.stringify({ event, ...message.data.alert }),
      {
        retain: false,
        qos: 1,
      },
    );
  }

  private serial(fn: () => Promise<void>): Promise<void> {
    const next = this.chain.then(fn, fn);
    this.chain = next.catch((err: unknown) =>
      this.deps.log.warn({ err }, 'MQTT: reconnect failed'),
    );
    return next;
  }
}
