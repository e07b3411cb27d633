import {
  CHANNEL_FIELDS,
  channelConfigProblem,
  type ChannelConfig,
  type ChannelCreate,
  type ChannelUpdate,
  type NotificationChannel,
  type NotificationChannelType,
} from '@berth/contracts';
import { badRequest, conflict, notFound } from '../../platform/http-errors.js';
import type { SecretBox } from '../../platform/secret-box.js';
import type { ChannelRow, NotificationsStore } from './notifications.store.js';

/** A channel as delivery needs it: its config whole, secrets opened. */
export interface LiveChannel {
  id: number;
  name: string;
  type: NotificationChannelType;
  enabled: boolean;
  config: ChannelConfig;
}

const MASK = '••••••';

/** `••••••abcd`: enough to recognise a value, never enough to use it. */
export function maskSecret(value: string): string {
  return value.length >= 16 ? `${MASK}${value.slice(-4)}` : MASK;
}

const isBlank = (v: unknown) =>
  v === undefined || v === null || (typeof v === 'string' && v.trim() === '');

const secretKeys = (type: NotificationChannelType) => {
  const keys = CHANNEL_FIELDS[type].filter((f) => f.secret).map((f) => f.key);
  return type === 'telegram' ? [...keys, 'token'] : keys;
};

/** Only the type's fields, with defaults, trimmed; Telegram's legacy `token` becomes bot_token. */
function normalise(type: NotificationChannelType, config: ChannelConfig): ChannelConfig {
  const out: ChannelConfig = {};
  for (const f of CHANNEL_FIELDS[type]) {
    let v = config[f.key];
    if (type === 'telegram' && f.key === 'bot_token' && isBlank(v)) v = config.token;
    if (isBlank(v)) {
      if (f.default !== undefined) out[f.key] = f.default;
      continue;
    }
    if (f.input === 'number') out[f.key] = Number(v);
    else if (f.input === 'checkbox') out[f.key] = v === true;
    else out[f.key] = typeof v === 'string' ? v.trim() : (v ?? null);
  }
  return out;
}

/**
 * Channels: validated per type with the spec's messages, secrets sealed at rest and masked
 * in answers (a blank or masked secret on edit keeps the stored one), the type fixed once
 * created. Kept in memory too, since every notification reads them.
 */
export class ChannelsService {
  private readonly cache = new Map<number, { row: ChannelRow; live: LiveChannel }>();

  constructor(
    private readonly store: NotificationsStore['channels'],
    private readonly box: SecretBox,
  ) {}

  async load(): Promise<void> {
    this.cache.clear();
    for (const row of await this.store.all()) this.remember(row);
  }

  ids(): number[] {
    return [...this.cache.keys()];
  }

  live(id: number): LiveChannel | undefined {
    return this.cache.get(id)?.live;
  }

  list(): NotificationChannel[] {
    return [...this.cache.values()].sort((a, b) => a.row.id - b.row.id).map((c) => this.toApi(c));
  }

  get(id: number): NotificationChannel {
    const c = this.cache.get(id);
    if (c === undefined) throw notFound('Channel not found');
    return this.toApi(c);
  }

  async create(body: ChannelCreate): Promise<NotificationChannel> {
    const problem = channelConfigProblem(body.type, body.config);
    if (problem !== null) throw badRequest(`${problem.field}: ${problem.message}`);
    await this.uniqueName(body.name);
    this.uniqueDevice(body.type, body.config);
    const now = new Date().toISOString();
    const row = await this.store.insert({
      name: body.name,
      type: body.type,
      enabled: body.enabled === false ? 0 : 1,
      ...this.seal(body.type, normalise(body.type, body.config)),
      last_error: null,
      last_error_at: null,
      last_delivered_at: null,
      created_at: now,
      updated_at: now,
    });
    return this.toApi(this.remember(row));
  }

  async update(id: number, body: ChannelUpdate): Promise<NotificationChannel> {
    const current = this.cache.get(id);
    if (current === undefined) throw notFound('Channel not found');
    const type = current.live.type;
    if (body.type !== undefined && body.type !== type)
      throw badRequest('type: The channel type cannot be changed after creation');
    if (body.name !== undefined && body.name !== current.row.name) await this.uniqueName(body.name);
    const patch: Partial<ChannelRow> = { updated_at: new Date().toISOString() };
    if (body.name !== undefined) patch.name = body.name;
    if (body.enabled !== undefined) patch.enabled = body.enabled ? 1 : 0;
    if (body.config !== undefined) {
      const kept = new Set<string>();
      const merged: ChannelConfig = Object.fromEntries(
        Object.entries(body.config).map(([key, v]) => {
          const unchanged =
            secretKeys(type).includes(key) &&
            (isBlank(v) || (typeof v === 'string' && v.startsWith(MASK)));
          if (!unchanged) return [key, v];
          if (!isBlank(current.live.config[key])) kept.add(key);
          return [key, current.live.config[key] ?? null];
        }),
      );
      for (const key of secretKeys(type)) {
        if (!(key in merged) && !isBlank(current.live.config[key])) {
          kept.add(key);
          merged[key] = current.live.config[key] ?? null;
        }
      }
      const problem = channelConfigProblem(type, merged, kept);
      if (problem !== null) throw badRequest(`${problem.field}: ${problem.message}`);
      this.uniqueDevice(type, merged, id);
      Object.assign(patch, this.seal(type, normalise(type, merged)));
      // A changed config deserves a fresh start: the old error no longer says anything.
      patch.last_error = null;
      patch.last_error_at = null;
    }
    const row = await this.store.update(id, patch);
    if (row === undefined) throw notFound('Channel not found');
    return this.toApi(this.remember(row));
  }

  async delete(id: number): Promise<void> {
    if (!(await this.store.delete(id))) throw notFound('Channel not found');
    this.cache.delete(id);
  }

  /** Records the outcome of a delivery on the channel (shown in the list). */
  async noteOutcome(id: number, error: string | null): Promise<void> {
    const c = this.cache.get(id);
    if (c === undefined) return;
    const now = new Date().toISOString();
    const patch: Partial<ChannelRow> =
      error === null
        ? { last_error: null, last_error_at: null, last_delivered_at: now }
        : { last_error: error.slice(0, 500), last_error_at: now };
    // Successes in a burst: one write every few seconds is enough for the list.
    if (
      error === null &&
      c.row.last_error === null &&
      c.row.last_delivered_at !== null &&
      Date.now() - Date.parse(c.row.last_delivered_at) < 5000
    )
      return;
    c.row = { ...c.row, ...patch };
    await this.store.update(id, patch);
  }

  /**
   * A push service said the channel's subscription is gone: its secrets (the subscription)
   * are dropped, so later deliveries fail at once with words saying so, never retried.
   */
  async forgetSubscription(id: number): Promise<void> {
    const c = this.cache.get(id);
    if (c === undefined || c.row.secrets_sealed === null) return;
    const row = await this.store.update(id, {
      secrets_sealed: null,
      updated_at: new Date().toISOString(),
    });
    if (row !== undefined) this.remember(row);
  }

  /** One channel per device: a browser has one subscription, so two channels would send twice. */
  private uniqueDevice(type: NotificationChannelType, config: ChannelConfig, self?: number): void {
    if (type !== 'web_push' || typeof config.endpoint !== 'string') return;
    const endpoint = config.endpoint.trim();
    for (const c of this.cache.values()) {
      if (c.live.id !== self && c.live.type === 'web_push' && c.live.config.endpoint === endpoint)
        throw conflict(`endpoint: This device already has a channel: '${c.live.name}'`);
    }
  }

  private async uniqueName(name: string): Promise<void> {
    if ((await this.store.byName(name)) !== undefined)
      throw conflict(`name: A channel named '${name}' already exists`);
  }

  private seal(type: NotificationChannelType, config: ChannelConfig) {
    const plain: ChannelConfig = {};
    const secrets: ChannelConfig = {};
    const keys = new Set(secretKeys(type));
    for (const [k, v] of Object.entries(config)) (keys.has(k) ? secrets : plain)[k] = v;
    return {
      config_json: JSON.stringify(plain),
      secrets_sealed:
        Object.keys(secrets).length === 0 ? null : this.box.seal(JSON.stringify(secrets)),
    };
  }

  private remember(row: ChannelRow) {
    const type = row.type as NotificationChannelType;
    const secrets =
      row.secrets_sealed === null
        ? {}
        : (JSON.parse(this.box.open(row.secrets_sealed)) as ChannelConfig);
    const entry = {
      row,
      live: {
        id: row.id,
        name: row.name,
        type,
        enabled: row.enabled === 1,
        config: { ...(JSON.parse(row.config_json) as ChannelConfig), ...secrets },
      },
    };
    this.cache.set(row.id, entry);
    return entry;
  }

  private toApi({ row, live }: { row: ChannelRow; live: LiveChannel }): NotificationChannel {
    const keys = new Set(secretKeys(live.type));
    const config = Object.fromEntries(
      Object.entries(live.config).map(([k, v]) => [
        k,
        keys.has(k) && typeof v === 'string' && v !== '' ? maskSecret(v) : v,
      ]),
    );
    return {
      id: row.id,
      name: row.name,
      type: live.type,
      enabled: live.enabled,
      config,
      created_at: row.created_at,
      updated_at: row.updated_at,
      last_error: row.last_error,
      last_error_at: row.last_error_at,
      last_delivered_at: row.last_delivered_at,
    };
  }
}
