import {
  DEFAULT_SETTINGS,
  historyRetentionIssue,
  writableSettingsShape,
  type GlobalSettings,
  type UpdateSettingsRequest,
  type WritableSettings,
} from '@berth/contracts';
import type { FastifyBaseLogger } from 'fastify';
import { badRequest } from '../../platform/http-errors.js';
import type { SettingsStore } from './settings.store.js';

type Listener = (settings: WritableSettings, changed: (keyof WritableSettings)[]) => void;

/**
 * A check of the settings an update would leave, across fields or against another module's
 * state: the field at fault and the message, or null. It runs only when one of `keys` changes,
 * so a stored combination that an older Berth allowed never blocks an unrelated change.
 */
export interface SettingsCheck {
  keys: readonly (keyof WritableSettings)[];
  issue: (next: WritableSettings) => { field: string; message: string } | null;
}

const HISTORY_KEYS = [
  'history_10s_retention_hours',
  'history_1m_retention_hours',
  'history_15m_retention_hours',
] as const;

/** The newest Berth release newer than the running one, as the release feed last found it. */
export type ReleaseSource = () => { version: string; url: string } | null;

/**
 * Global settings with the spec's defaults. Values are cached in memory because the
 * monitor reads them on every tick; writes go to the database first.
 */
export class SettingsService {
  private current: WritableSettings = { ...DEFAULT_SETTINGS };
  private readonly listeners = new Set<Listener>();
  private readonly checks: SettingsCheck[] = [{ keys: HISTORY_KEYS, issue: historyRetentionIssue }];

  constructor(
    private readonly store: SettingsStore,
    private readonly log: FastifyBaseLogger,
    /** Where the read-only release fields come from (the release feed checker). */
    private readonly release: ReleaseSource = () => null,
  ) {}

  /** Loads stored values; a value that no longer validates falls back to its default. */
  async load(): Promise<void> {
    const stored = await this.store.readAll();
    const next: Record<string, unknown> = { ...DEFAULT_SETTINGS };
    for (const [key, schema] of Object.entries(writableSettingsShape)) {
      if (!(key in stored)) continue;
      const parsed = schema.safeParse(stored[key]);
      if (parsed.success) next[key] = parsed.data;
      else this.log.warn({ key }, 'stored setting is invalid; using its default');
    }
    this.current = next as WritableSettings;
  }

  get(): WritableSettings {
    return this.current;
  }

  /** The API shape: writable settings plus the read-only release fields. */
  toResponse(): GlobalSettings {
    const release = this.release();
    return {
      ...this.current,
      update_available: release !== null,
      latest_available_version: release?.version ?? null,
      latest_release_url: release?.url ?? null,
    };
  }

  async update(patch: UpdateSettingsRequest): Promise<WritableSettings> {
    const changes = Object.fromEntries(Object.entries(patch).filter(([, v]) => v !== undefined));
    const next = { ...this.current, ...changes };
    for (const check of this.checks) {
      if (!check.keys.some((key) => key in changes)) continue;
      const issue = check.issue(next);
      if (issue !== null) throw badRequest(`${issue.field}: ${issue.message}`);
    }
    await this.store.writeMany(changes);
    this.current = next;
    const changed = Object.keys(changes) as (keyof WritableSettings)[];
    for (const listener of this.listeners) listener(this.current, changed);
    return this.current;
  }

  /** Adds a check every update must pass (another module's rule about these settings). */
  addCheck(check: SettingsCheck): void {
    this.checks.push(check);
  }

  /** Called after every successful update with the keys that were written. */
  onChange(listener: Listener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
}
