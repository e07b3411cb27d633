import { containerNameKey, type FloatingTagMode, type WritableSettings } from '@berth/contracts';
import type { FastifyBaseLogger } from 'fastify';
import { notFound } from '../../platform/http-errors.js';
import type { LiveHub } from '../../platform/live-hub.js';
import type { SecretBox } from '../../platform/secret-box.js';
import type { AuditRecord } from '../audit/index.js';
import type { EventInput } from '../events/index.js';
import type { ContainerSnapshot, Fleet } from '../monitor/index.js';
import { credentialsFor } from './credentials.js';
import { RegistryClient } from './registry.js';
import { CheckRun } from './update-check.js';
import type { UpdatesStore } from './updates.store.js';

export type ImageCheck =
  | {
      kind: 'checked';
      updateAvailable: boolean;
      currentDigest: string | null;
      latestDigest: string;
    }
  | { kind: 'local' };

/** The alert engine's entry points, when the alerts module provides them. */
export interface UpdateAlertsPort {
  signal(s: {
    kind: 'update_available' | 'update_completed' | 'update_failed';
    hostId: string;
    containerName: string;
    active: boolean;
    message: string;
    /** Handed on to the notification; `trigger: 'manual'` is never notified. */
    context?: Record<string, string | number | null>;
  }): Promise<void>;
}

/** What the updates module needs once the monitor exists. */
export interface UpdatesRuntime {
  fleet: Fleet;
  settings: {
    get(): WritableSettings;
    onChange(l: (s: WritableSettings, keys: string[]) => void): () => void;
  };
  /** auto_update_enabled / floating_tag_mode, keyed by host and name. */
  containerSettings: {
    get(
      hostId: string,
      name: string,
    ): { auto_update_enabled: number; floating_tag_mode: string } | undefined;
  };
  setAutoUpdate: (
    hostId: string,
    containerId: string,
    enabled: boolean,
    mode: FloatingTagMode,
    username: string,
  ) => Promise<unknown>;
  record: (event: EventInput) => Promise<unknown>;
  hub: LiveHub;
  log: FastifyBaseLogger;
  alerts?: UpdateAlertsPort;
  /** Auto-updates are audited as the system's. */
  audit?: { record(entry: AuditRecord): void };
  /** Told while a container is being updated (alert suppression, health-check pause). */
  onUpdating?: ((hostId: string, name: string, updating: boolean) => void)[];
}

export const COMPOSE_LABEL = 'com.docker.compose.project';

/**
 * dockerode's words for an engine answer it did not parse (a pull's is a stream), around the
 * engine's own: "(HTTP code 403) unexpected - This agent is read-only: actions are refused ".
 */
const UNPARSED_ANSWER = /^\(HTTP code \d+\) [^-]*- (.+?)\s*$/s;

export const errText = (err: unknown): string => {
  const e = err as { json?: { message?: unknown }; message?: string };
  const m = e.json?.message;
  if (typeof m === 'string') return m;
  const text = String(e.message ?? err);
  return UNPARSED_ANSWER.exec(text)?.[1] ?? text;
};

/** A container being updated, by host and name (settings follow the name, not the id). */

/** The name the previous container takes while its update runs, kept until the new one is healthy. */
export const backupName = (name: string, since: number) => `${name}-berth-old-${since}`;

/** The original name and the update's start behind a backup's name; null for any other name. */
export function parseBackupName(name: string): { original: string; since: number } | null {
  const m = /^(.+)-berth-old-(\d+)$/.exec(name);
  return m?.[1] === undefined ? null : { original: m[1], since: Number(m[2]) };
}

/**
 * What the parts of the updates module share: the store, the secret box, the runtime (the
 * fleet and the modules it reports to), and which containers are being updated right now.
 */
export class UpdatesContext {
  readonly updating = new Set<string>();

  /** Whether the named container, or the original of a backup so named, is being updated. */
  isUpdating(hostId: string, name: string): boolean {
    const original = parseBackupName(name)?.original;
    return (
      this.updating.has(containerNameKey(hostId, name)) ||
      (original !== undefined && this.updating.has(containerNameKey(hostId, original)))
    );
  }

  /** How long a container without HEALTHCHECK must keep running to count as healthy. */
  settleMs = 10_000;

  constructor(
    readonly store: UpdatesStore,
    readonly secrets: SecretBox,
    readonly r: UpdatesRuntime,
  ) {}

  find(hostId: string, containerId: string): ContainerSnapshot {
    if (this.r.fleet.host(hostId) === undefined) throw notFound('Host not found');
    const c = this.r.fleet.container(hostId, containerId);
    if (c === undefined) throw notFound('Container not found');
    return c;
  }

  modeOf(c: ContainerSnapshot): FloatingTagMode {
    const m = this.r.containerSettings.get(c.hostId, c.name)?.floating_tag_mode;
    return m === 'patch' || m === 'minor' || m === 'latest' ? m : 'exact';
  }

  autoEnabled(c: ContainerSnapshot): boolean {
    return this.r.containerSettings.get(c.hostId, c.name)?.auto_update_enabled === 1;
  }

  newRun(trigger: CheckRun['trigger'] = 'manual'): CheckRun {
    return new CheckRun(
      new RegistryClient({
        credentials: (registry) => credentialsFor(this.store, this.secrets, registry),
      }),
      trigger,
    );
  }
}
