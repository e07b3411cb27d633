import { randomUUID } from 'node:crypto';
import {
  containerKey,
  UPDATE_POLICY_CATEGORIES,
  type CheckAllResponse,
  type ExecuteUpdateResponse,
  type FloatingTagMode,
  type RegistryCredential,
  type RegistryCredentialCreate,
  type RegistryCredentialUpdate,
  type UpdatePoliciesResponse,
  type UpdatePolicyCategory,
  type UpdatePolicyItem,
  type UpdatePolicyValue,
  type UpdatesSummary,
  type UpdateStatus,
  type WritableSettings,
} from '@berth/contracts';
import { Cron } from 'croner';
import type Docker from 'dockerode';
import type { FastifyBaseLogger } from 'fastify';
import { badRequest, conflict, notFound } from '../../platform/http-errors.js';
import type { LiveHub } from '../../platform/live-hub.js';
import type { SecretBox } from '../../platform/secret-box.js';
import type { EventInput } from '../events/index.js';
import type { ContainerSnapshot, Fleet } from '../monitor/index.js';
import { executeUpdate, type ExecuteResult } from './executor.js';
import { detectChangelog, detectRegistryPage } from './links.js';
import { validateUpdate } from './policies.js';
import { parseImageRef, RegistryClient, registryKey, type Credentials } from './registry.js';
import { CheckRun, type CheckOutcome } from './update-check.js';
import type { CredentialRow, UpdateRow, UpdatesStore } from './updates.store.js';

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
  /** Told while a container is being updated (alert suppression, health-check pause). */
  onUpdating?: ((hostId: string, name: string, updating: boolean) => void)[];
}

const COMPOSE_LABEL = 'com.docker.compose.project';
const CHECK_CONCURRENCY = 8;

const errText = (err: unknown): string => {
  const e = err as { json?: { message?: unknown }; message?: string };
  const m = e.json?.message;
  return typeof m === 'string' ? m : String(e.message ?? err);
};

/**
 * Image updates: finds newer versions (registry client, tracking modes), records them,
 * applies them with live progress and health-verified rollback, runs the daily check and
 * auto-updates, and owns update policies and registry credentials.
 */
export class UpdatesService {
  private rt: UpdatesRuntime | null = null;
  private readonly updating = new Set<string>();
  private job: Cron | null = null;
  private unsubscribe: (() => void) | null = null;
  /** Last check-all result, for tests and the bench. */
  lastRun: { requests: number; ms: number } | null = null;
  /** How long a container without HEALTHCHECK must keep running to count as healthy. */
  settleMs = 10_000;

  constructor(
    private readonly store: UpdatesStore,
    private readonly secrets: SecretBox,
  ) {}

  attach(runtime: UpdatesRuntime): void {
    this.rt = runtime;
  }

  private get r(): UpdatesRuntime {
    if (this.rt === null) throw new Error('updates service used before attach()');
    return this.rt;
  }

  // ---- lookups -------------------------------------------------------------------------

  private find(hostId: string, containerId: string): ContainerSnapshot {
    if (this.r.fleet.host(hostId) === undefined) throw notFound('Host not found');
    const c = this.r.fleet.container(hostId, containerId);
    if (c === undefined) throw notFound('Container not found');
    return c;
  }

  private modeOf(c: ContainerSnapshot): FloatingTagMode {
    const m = this.r.containerSettings.get(c.hostId, c.name)?.floating_tag_mode;
    return m === 'patch' || m === 'minor' || m === 'latest' ? m : 'exact';
  }

  private autoEnabled(c: ContainerSnapshot): boolean {
    return this.r.containerSettings.get(c.hostId, c.name)?.auto_update_enabled === 1;
  }

  /** Credentials for a registry (as images name it), decrypted on use. */
  async credentialsFor(registry: string): Promise<Credentials | null> {
    for (const row of await this.store.credentials()) {
      if (registryKey(row.registry_url) === registry)
        return { username: row.username, password: this.secrets.open(row.password_sealed) };
    }
    return null;
  }

  newRun(trigger: CheckRun['trigger'] = 'manual'): CheckRun {
    return new CheckRun(
      new RegistryClient({ credentials: (registry) => this.credentialsFor(registry) }),
      trigger,
    );
  }

  // ---- checks --------------------------------------------------------------------------

  /** Checks one container and records the result. Throws when the check cannot be made. */
  async check(
    c: ContainerSnapshot,
    docker: Docker | null,
    run = this.newRun(),
  ): Promise<ImageCheck> {
    const outcome = await this.checkOutcome(c, docker, run);
    if (outcome.kind === 'error') throw conflict(`Could not check ${c.image}: ${outcome.message}`);
    if (outcome.kind === 'local') return { kind: 'local' };
    return {
      kind: 'checked',
      updateAvailable: outcome.updateAvailable,
      currentDigest: outcome.currentDigest,
      latestDigest: outcome.latestDigest,
    };
  }

  private async checkOutcome(
    c: ContainerSnapshot,
    docker: Docker | null,
    run: CheckRun,
  ): Promise<CheckOutcome> {
    if (docker === null) return { kind: 'error', message: `Host ${c.hostName} is offline` };
    const row = await this.store.get(c.hostId, c.name);
    let outcome: CheckOutcome;
    try {
      const { imageRef, imageId } = await run.containerImage(docker, c.fullId);
      outcome = await run.check({
        docker,
        imageRef,
        imageId,
        repoDigests: await run.repoDigests(docker, imageId),
        mode: this.modeOf(c),
        failedDigest: row?.failed_digest ?? null,
      });
    } catch (err) {
      outcome = { kind: 'error', message: errText(err) };
    }
    const now = new Date().toISOString();
    const base = {
      host_id: c.hostId,
      container_name: c.name,
      container_id: c.id,
      image: c.image,
      checked_at: now,
    };
    if (outcome.kind === 'checked') {
      await this.store.save({
        ...base,
        current_digest: outcome.currentDigest,
        latest_digest: outcome.latestDigest,
        latest_image: outcome.latestImage,
        update_available: outcome.updateAvailable ? 1 : 0,
        last_error: null,
      });
      await this.alertAvailable(c, row, outcome, run.trigger);
    } else if (outcome.kind === 'local') {
      await this.store.save({
        ...base,
        current_digest: null,
        latest_digest: null,
        latest_image: null,
        update_available: 0,
        last_error: outcome.reason,
      });
    } else {
      // A registry that is down changes nothing but the error shown.
      await this.store.save({
        ...base,
        current_digest: row?.current_digest ?? null,
        latest_digest: row?.latest_digest ?? null,
        update_available: row?.update_available ?? 0,
        last_error: outcome.message,
      });
    }
    return outcome;
  }

  /** update_available once per new version, not once per check. */
  private async alertAvailable(
    c: ContainerSnapshot,
    row: UpdateRow | undefined,
    outcome: Extract<CheckOutcome, { kind: 'checked' }>,
    trigger: CheckRun['trigger'],
  ): Promise<void> {
    const alerts = this.r.alerts;
    if (!outcome.updateAvailable || row?.alerted_digest === outcome.latestDigest) return;
    await this.store.patch(c.hostId, c.name, { alerted_digest: outcome.latestDigest });
    await this.r.record({
      severity: 'info',
      category: 'container',
      event_type: 'update_available',
      title: `Update available for ${c.name}: ${outcome.latestImage}`,
      message: `${c.image} → ${outcome.latestImage} (${outcome.latestDigest.slice(0, 19)})`,
      host_id: c.hostId,
      host_name: c.hostName,
      container_id: containerKey(c.hostId, c.id),
      container_name: c.name,
      triggered_by: 'system',
    });
    await alerts
      ?.signal({
        kind: 'update_available',
        hostId: c.hostId,
        containerName: c.name,
        active: true,
        message: `Update available: ${outcome.latestImage}`,
        context: { trigger },
      })
      .catch((err: unknown) => this.r.log.warn({ err }, 'update_available alert failed'));
  }

  async checkOne(hostId: string, containerId: string): Promise<UpdateStatus> {
    const c = this.find(hostId, containerId);
    const outcome = await this.checkOutcome(
      c,
      this.r.fleet.engine(c.hostId, { purpose: 'query' }),
      this.newRun(),
    );
    if (outcome.kind === 'error') throw conflict(`Could not check ${c.image}: ${outcome.message}`);
    return this.status(hostId, c.id);
  }

  /** Checks every container (the daily run skips compose ones when the setting says so). */
  async checkAll(opts: { scheduled?: boolean } = {}): Promise<CheckAllResponse> {
    const started = Date.now();
    const skipCompose = opts.scheduled === true && this.r.settings.get().skip_compose_containers;
    const all = this.r.fleet
      .containers()
      .filter((c) => !(skipCompose && c.labels[COMPOSE_LABEL] !== undefined));
    const run = this.newRun(opts.scheduled === true ? 'scheduled' : 'manual');
    const errors: string[] = [];
    let checked = 0;
    let found = 0;
    let next = 0;
    const lane = async () => {
      while (next < all.length) {
        const c = all[next++];
        if (c === undefined) break;
        const outcome = await this.checkOutcome(
          c,
          this.r.fleet.engine(c.hostId, { purpose: 'query' }),
          run,
        );
        if (outcome.kind === 'error') errors.push(`${c.hostName}/${c.name}: ${outcome.message}`);
        else checked++;
        if (outcome.kind === 'checked' && outcome.updateAvailable) found++;
      }
    };
    await Promise.all(Array.from({ length: CHECK_CONCURRENCY }, lane));
    this.lastRun = { requests: run.requests, ms: Date.now() - started };
    this.r.fleet.changed();
    return { checked, total: all.length, updates_found: found, errors };
  }

  // ---- status and settings -------------------------------------------------------------

  async status(hostId: string, containerId: string): Promise<UpdateStatus> {
    const c = this.find(hostId, containerId);
    const [row, config, patterns] = await Promise.all([
      this.store.get(c.hostId, c.name),
      this.store.getConfig(c.hostId, c.name),
      this.store.policies(),
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
      floating_tag_mode: this.modeOf(c),
      auto_update_enabled: this.autoEnabled(c),
      update_policy: policy,
      changelog_url: changelog ?? detectedChangelog,
      changelog_source:
        changelog !== null ? 'manual' : detectedChangelog !== null ? 'auto-detected' : 'failed',
      registry_page_url: registryPage ?? detectRegistryPage(c.image),
      registry_page_source:
        registryPage !== null ? 'manual' : detectRegistryPage(c.image) !== null ? 'auto' : null,
      is_compose_container: c.labels[COMPOSE_LABEL] !== undefined,
      skip_compose_enabled: this.r.settings.get().skip_compose_containers,
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
      updating: this.updating.has(`${c.hostId}\u0000${c.name}`),
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
    const c = this.find(hostId, containerId);
    if (body.auto_update_enabled !== undefined || body.floating_tag_mode !== undefined) {
      await this.r.setAutoUpdate(
        c.hostId,
        c.id,
        body.auto_update_enabled ?? this.autoEnabled(c),
        body.floating_tag_mode ?? this.modeOf(c),
        username,
      );
    }
    if (body.changelog_url !== undefined || body.registry_page_url !== undefined) {
      const cur = await this.store.getConfig(c.hostId, c.name);
      await this.store.saveConfig({
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
    const c = this.find(hostId, containerId);
    const cur = await this.store.getConfig(c.hostId, c.name);
    await this.store.saveConfig({
      host_id: c.hostId,
      container_name: c.name,
      update_policy: policy,
      changelog_url: cur?.changelog_url ?? null,
      registry_page_url: cur?.registry_page_url ?? null,
      updated_at: new Date().toISOString(),
    });
    await this.r.record({
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
    const keys: string[] = [];
    for (const row of await this.store.all()) {
      if (row.update_available !== 1) continue;
      const c = this.rt?.fleet.containerByName(row.host_id, row.container_name);
      if (this.rt !== null && (c === undefined || c.image !== row.image)) continue;
      keys.push(containerKey(row.host_id, c?.id ?? row.container_id));
    }
    return { total_updates: keys.length, containers_with_updates: keys };
  }

  /** Containers with an update waiting, per host. */
  async countsByHost(): Promise<Map<string, number>> {
    const counts = new Map<string, number>();
    for (const key of (await this.summary()).containers_with_updates) {
      const hostId = key.slice(0, key.lastIndexOf(':'));
      counts.set(hostId, (counts.get(hostId) ?? 0) + 1);
    }
    return counts;
  }

  // ---- execution -----------------------------------------------------------------------

  async execute(
    hostId: string,
    containerId: string,
    opts: {
      force: boolean;
      username: string;
      auto?: boolean;
      /** Each stage as it happens (the batch panel shows it per item). */
      onStage?: (stage: string, progress: number, message: string) => void;
    },
  ): Promise<ExecuteUpdateResponse> {
    const c = this.find(hostId, containerId);
    const [config, patterns] = await Promise.all([
      this.store.getConfig(c.hostId, c.name),
      this.store.policies(),
    ]);
    const validation = validateUpdate({
      name: c.name,
      image: c.image,
      labels: c.labels,
      policy: (config?.update_policy ?? null) as UpdatePolicyValue | null,
      patterns,
    });
    const answer = (
      status: ExecuteUpdateResponse['status'],
      message: string,
      detail: string | null,
      newId: string | null = null,
    ): ExecuteUpdateResponse => ({
      status,
      validation: validation?.result ?? 'allow',
      reason: validation?.reason ?? null,
      matched_pattern: validation?.matched_pattern ?? null,
      message,
      detail,
      new_container_id: newId,
    });
    if (validation?.result === 'block')
      return answer('blocked', 'Update blocked by policy', validation.reason);
    if (validation?.result === 'warn' && (!opts.force || opts.auto === true))
      return answer('requires_confirmation', 'This update needs confirmation', validation.reason);

    let row = await this.store.get(c.hostId, c.name);
    if (row?.update_available !== 1 || row.image !== c.image) {
      await this.checkOne(c.hostId, c.id);
      row = await this.store.get(c.hostId, c.name);
    }
    if (row?.update_available !== 1 || row.latest_image === null)
      throw conflict('No update available for this container');
    return this.replace(c, {
      image: row.latest_image,
      pull: true,
      digest: row.latest_digest,
      username: opts.username,
      kind: 'update',
      answer,
      ...(opts.onStage === undefined ? {} : { onStage: opts.onStage }),
    });
  }

  /** Back to the image the last update replaced (kept on the engine for this). */
  async rollback(
    hostId: string,
    containerId: string,
    username: string,
  ): Promise<ExecuteUpdateResponse> {
    const c = this.find(hostId, containerId);
    const row = await this.store.get(c.hostId, c.name);
    if (row?.previous_image_id === null || row?.previous_image_id === undefined)
      throw conflict('No previous version to roll back to');
    const image = row.previous_image ?? row.previous_image_id;
    const answer = (
      status: ExecuteUpdateResponse['status'],
      message: string,
      detail: string | null,
      newId: string | null = null,
    ): ExecuteUpdateResponse => ({
      status,
      validation: 'allow',
      reason: null,
      matched_pattern: null,
      message,
      detail,
      new_container_id: newId,
    });
    const docker = this.r.fleet.engine(c.hostId, { purpose: 'action' });
    // The tag may have moved since; run the exact image kept, then name it as before.
    if (docker !== null && row.previous_image !== null) {
      await docker
        .getImage(row.previous_image_id)
        .tag(tagParts(row.previous_image))
        .catch(() => undefined);
    }
    return this.replace(c, {
      image,
      pull: false,
      digest: null,
      username,
      kind: 'rollback',
      answer,
    });
  }

  private async replace(
    c: ContainerSnapshot,
    job: {
      image: string;
      pull: boolean;
      digest: string | null;
      username: string;
      kind: 'update' | 'rollback';
      onStage?: (stage: string, progress: number, message: string) => void;
      answer: (
        s: ExecuteUpdateResponse['status'],
        m: string,
        d: string | null,
        id?: string | null,
      ) => ExecuteUpdateResponse;
    },
  ): Promise<ExecuteUpdateResponse> {
    const key = `${c.hostId}\u0000${c.name}`;
    if (this.updating.has(key)) throw conflict('An update of this container is already running');
    const docker = this.r.fleet.engine(c.hostId, { purpose: 'action' });
    if (docker === null) throw conflict(`Host ${c.hostName} is offline`);
    this.updating.add(key);
    this.setUpdating(c, true);
    const correlation = randomUUID();
    const ref = parseImageRef(job.image);
    const creds = job.pull ? await this.credentialsFor(ref.registry) : null;
    const publishStage = (stage: string, progress: number, message: string) => {
      job.onStage?.(stage, progress, message);
      this.r.hub.publish({
        type: 'container_update_progress',
        data: { host_id: c.hostId, container_id: c.id, stage, progress, message },
      });
    };
    let result: ExecuteResult;
    try {
      await this.event(
        c,
        'info',
        `${job.kind}_started`,
        `Updating ${c.name} to ${job.image}`,
        null,
        correlation,
        job.username,
      );
      result = await executeUpdate({
        docker,
        containerId: c.fullId,
        image: job.image,
        pull: job.pull,
        auth: creds === null ? null : { ...creds, serveraddress: ref.registry },
        healthTimeoutMs: this.r.settings.get().health_check_timeout_seconds * 1000,
        settleMs: this.settleMs,
        hooks: {
          stage: (stage, progress, message) =>
            publishStage(stage === 'starting_container' ? 'starting' : stage, progress, message),
          layers: (p) =>
            this.r.hub.publish({
              type: 'container_update_layer_progress',
              data: { host_id: c.hostId, container_id: c.id, ...p },
            }),
        },
      });
    } finally {
      this.updating.delete(key);
      this.setUpdating(c, false);
    }
    if (result.ok) {
      const newShort = result.newId.slice(0, 12);
      await this.r.fleet.refresh(c.hostId, result.newId).catch(() => null);
      this.r.hub.publish({
        type: 'container_recreated',
        data: { host_id: c.hostId, old_container_id: c.id, new_container_id: newShort },
      });
      const row = await this.store.get(c.hostId, c.name);
      await this.store.save({
        host_id: c.hostId,
        container_name: c.name,
        container_id: newShort,
        image: job.image,
        current_digest: job.digest ?? row?.current_digest ?? null,
        latest_digest: job.digest ?? row?.latest_digest ?? null,
        latest_image: job.image,
        update_available: 0,
        checked_at: new Date().toISOString(),
        last_error: null,
        failed_digest: null,
        previous_image: result.oldImage,
        previous_image_id: result.oldImageId,
      });
      await this.event(
        c,
        'info',
        job.kind === 'update' ? 'update_completed' : 'rollback_completed',
        job.kind === 'update'
          ? `Container ${c.name} updated to ${job.image}`
          : `Container ${c.name} rolled back to ${job.image}`,
        `${c.image} → ${job.image}; new container ${newShort}`,
        correlation,
        job.username,
        newShort,
      );
      await this.signal(c, 'update_available', false, 'Updated');
      await this.signal(c, 'update_failed', false, 'Updated');
      await this.signal(c, 'update_completed', true, `Updated to ${job.image}`);
      this.r.fleet.changed();
      return job.answer('success', 'Container updated successfully', null, newShort);
    }
    await this.r.fleet.refresh(c.hostId, result.containerId).catch(() => null);
    if (result.versionFailed && job.kind === 'update') {
      await this.store.patch(c.hostId, c.name, {
        failed_digest: job.digest,
        update_available: 0,
        last_error: result.message,
      });
    }
    await this.event(
      c,
      'error',
      job.kind === 'update' ? 'update_failed' : 'rollback_failed',
      `Update of ${c.name} to ${job.image} failed`,
      `${result.message}. ${result.detail}`,
      correlation,
      job.username,
    );
    await this.signal(c, 'update_failed', true, `${result.message}. ${result.detail}`);
    this.r.fleet.changed();
    return job.answer('failed', result.message, result.detail);
  }

  private setUpdating(c: ContainerSnapshot, updating: boolean) {
    for (const l of this.r.onUpdating ?? []) {
      try {
        l(c.hostId, c.name, updating);
      } catch (err) {
        this.r.log.warn({ err }, 'an updating listener failed');
      }
    }
  }

  private async signal(
    c: ContainerSnapshot,
    kind: 'update_available' | 'update_completed' | 'update_failed',
    active: boolean,
    message: string,
  ) {
    await this.r.alerts
      ?.signal({ kind, hostId: c.hostId, containerName: c.name, active, message })
      .catch((err: unknown) => this.r.log.warn({ err, kind }, 'update alert failed'));
  }

  private async event(
    c: ContainerSnapshot,
    severity: 'info' | 'error',
    type: string,
    title: string,
    message: string | null,
    correlation: string,
    username: string,
    containerId = c.id,
  ) {
    await this.r
      .record({
        severity,
        category: 'container',
        event_type: type,
        title,
        message,
        host_id: c.hostId,
        host_name: c.hostName,
        container_id: containerKey(c.hostId, containerId),
        container_name: c.name,
        correlation_id: correlation,
        triggered_by: username,
      })
      .catch((err: unknown) => this.r.log.warn({ err }, 'recording an update event failed'));
  }

  // ---- schedule and auto-update --------------------------------------------------------

  start(): void {
    this.arm();
    const offRecover = this.r.fleet.on('hostStatusChanged', ({ hostId, status }) => {
      if (status === 'online')
        this.recoverInterrupted(hostId).catch((err: unknown) =>
          this.r.log.warn({ err, hostId }, 'recovering interrupted updates failed'),
        );
    });
    const offSettings = this.r.settings.onChange((_s, keys) => {
      if (keys.includes('update_check_time') || keys.includes('timezone_offset')) this.arm();
    });
    this.unsubscribe = () => {
      offSettings();
      offRecover();
    };
  }

  stop(): void {
    this.job?.stop();
    this.job = null;
    this.unsubscribe?.();
  }

  /**
   * An update cut short (Berth or the engine went down mid-way) can leave the old container
   * renamed aside. When its name is free, it gets it back; when a container holds the name,
   * both are left for the operator, with an event saying so. Never removes anything.
   */
  async recoverInterrupted(hostId: string): Promise<void> {
    const docker = this.r.fleet.engine(hostId, { purpose: 'action' });
    if (docker === null) return;
    const all = await docker.listContainers({ all: true });
    const names = new Set(all.flatMap((c) => c.Names.map((n) => n.replace(/^\//, ''))));
    for (const c of all) {
      const name = c.Names[0]?.replace(/^\//, '') ?? '';
      const m = /^(.+)-berth-old-\d+$/.exec(name);
      if (m?.[1] === undefined || this.updating.has(`${hostId}\u0000${m[1]}`)) continue;
      const original = m[1];
      const host = this.r.fleet.host(hostId);
      const base = {
        category: 'container' as const,
        host_id: hostId,
        host_name: host?.name ?? null,
        container_id: containerKey(hostId, c.Id.slice(0, 12)),
        container_name: original,
        triggered_by: 'system',
      };
      if (names.has(original)) {
        await this.r.record({
          ...base,
          severity: 'warning',
          event_type: 'update_interrupted',
          title: `Backup ${name} of ${original} left by an interrupted update`,
          message: `Both ${original} and ${name} exist; check ${original} and remove the backup.`,
        });
        continue;
      }
      await docker.getContainer(c.Id).rename({ name: original });
      names.add(original);
      await this.r.record({
        ...base,
        severity: 'warning',
        event_type: 'update_interrupted',
        title: `Container ${original} restored after an interrupted update`,
        message: `The update was cut short; ${name} got its name back.`,
      });
    }
  }

  /** When the next daily check runs (ms since epoch). */
  get nextRun(): number | null {
    return this.job?.nextRun()?.getTime() ?? null;
  }

  /** (Re)creates the daily job from update_check_time and timezone_offset. */
  private arm(): void {
    this.job?.stop();
    const s = this.r.settings.get();
    this.job = dailyCheckJob(s.update_check_time, s.timezone_offset, () =>
      this.runScheduled().catch((err: unknown) =>
        this.r.log.warn({ err }, 'scheduled update check failed'),
      ),
    );
  }

  /** The daily check, then auto-updates: one container at a time per host. */
  async runScheduled(): Promise<void> {
    const result = await this.checkAll({ scheduled: true });
    this.r.log.info(result, 'scheduled update check finished');
    await this.autoUpdate();
  }

  async autoUpdate(): Promise<void> {
    const skipCompose = this.r.settings.get().skip_compose_containers;
    const rows = (await this.store.all()).filter((r) => r.update_available === 1);
    const byHost = new Map<string, ContainerSnapshot[]>();
    for (const row of rows) {
      const c = this.r.fleet.containerByName(row.host_id, row.container_name);
      if (c === undefined || c.image !== row.image || !this.autoEnabled(c)) continue;
      if (skipCompose && c.labels[COMPOSE_LABEL] !== undefined) continue;
      byHost.set(c.hostId, [...(byHost.get(c.hostId) ?? []), c]);
    }
    await Promise.all(
      [...byHost.values()].map(async (list) => {
        for (const c of list) {
          try {
            const res = await this.execute(c.hostId, c.id, {
              force: false,
              username: 'auto-update',
              auto: true,
            });
            this.r.log.info({ container: c.name, status: res.status }, 'auto-update');
          } catch (err) {
            this.r.log.warn({ err, container: c.name }, 'auto-update failed');
          }
        }
      }),
    );
  }

  // ---- policies ------------------------------------------------------------------------

  async policies(): Promise<UpdatePoliciesResponse> {
    const categories = Object.fromEntries(
      UPDATE_POLICY_CATEGORIES.map((c) => [c, [] as UpdatePolicyItem[]]),
    ) as UpdatePoliciesResponse['categories'];
    for (const row of await this.store.policies()) {
      const list = categories[row.category as UpdatePolicyCategory];
      if ((UPDATE_POLICY_CATEGORIES as readonly string[]).includes(row.category))
        list.push({ id: row.id, pattern: row.pattern, enabled: row.enabled === 1 });
    }
    return { categories };
  }

  async toggleCategory(
    category: UpdatePolicyCategory,
    enabled: boolean,
  ): Promise<UpdatePoliciesResponse> {
    const n = await this.store.setCategoryEnabled(category, enabled);
    if (n === 0 && category !== 'custom') throw notFound(`No patterns in category ${category}`);
    return this.policies();
  }

  async addCustom(pattern: string): Promise<UpdatePoliciesResponse> {
    const existing = (await this.store.policies()).find(
      (p) => p.pattern.toLowerCase() === pattern.toLowerCase(),
    );
    if (existing !== undefined) throw badRequest(`Pattern '${pattern}' already exists`);
    await this.store.addPolicy('custom', pattern);
    return this.policies();
  }

  async deleteCustom(id: number): Promise<UpdatePoliciesResponse> {
    if (!(await this.store.deletePolicy(id, 'custom'))) throw notFound('Custom pattern not found');
    return this.policies();
  }

  // ---- registry credentials ------------------------------------------------------------

  async listCredentials(): Promise<RegistryCredential[]> {
    return (await this.store.credentials()).map(publicCredential);
  }

  async addCredential(body: RegistryCredentialCreate): Promise<RegistryCredential> {
    const url = registryKey(body.registry_url);
    if (url === '' || /\s/.test(url)) throw badRequest('Invalid registry URL');
    const all = await this.store.credentials();
    if (all.some((r) => registryKey(r.registry_url) === url))
      throw badRequest(`Credentials for ${url} already exist`);
    const row = await this.store.addCredential({
      registry_url: url,
      username: body.username,
      password_sealed: this.secrets.seal(body.password),
    });
    return publicCredential(row);
  }

  async updateCredential(id: number, body: RegistryCredentialUpdate): Promise<RegistryCredential> {
    const row = await this.store.credential(id);
    if (row === undefined) throw notFound('Credential not found');
    await this.store.updateCredential(id, {
      ...(body.username === undefined ? {} : { username: body.username }),
      ...(body.password === undefined || body.password === ''
        ? {}
        : { password_sealed: this.secrets.seal(body.password) }),
    });
    const updated = await this.store.credential(id);
    if (updated === undefined) throw notFound('Credential not found');
    return publicCredential(updated);
  }

  async deleteCredential(id: number): Promise<void> {
    if (!(await this.store.deleteCredential(id))) throw notFound('Credential not found');
  }
}

/** A credential as the API shows it: never the password. */
function publicCredential(row: CredentialRow): RegistryCredential {
  return {
    id: row.id,
    registry_url: row.registry_url,
    username: row.username,
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}

/** `repo:tag` → { repo, tag } for `image.tag()`. */
function tagParts(ref: string): { repo: string; tag: string } {
  const colon = ref.lastIndexOf(':');
  if (colon > ref.lastIndexOf('/')) return { repo: ref.slice(0, colon), tag: ref.slice(colon + 1) };
  return { repo: ref, tag: 'latest' };
}

/**
 * A job that runs `run` daily when the wall clock at `offsetMinutes` east of UTC reads `hhmm`;
 * a run still going when the next is due is not doubled.
 */
export function dailyCheckJob(hhmm: string, offsetMinutes: number, run: () => Promise<void>): Cron {
  const [h, m] = hhmm.split(':').map(Number);
  return new Cron(
    `${m ?? 0} ${h ?? 2} * * *`,
    { utcOffset: offsetMinutes, protect: true, unref: true },
    run,
  );
}
