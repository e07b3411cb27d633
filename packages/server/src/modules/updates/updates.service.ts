import type {
  CheckAllResponse,
  ExecuteUpdateResponse,
  RegistryCredential,
  RegistryCredentialCreate,
  RegistryCredentialUpdate,
  UpdatePoliciesResponse,
  UpdatePolicyCategory,
  UpdatePolicyValue,
  UpdatesSummary,
  UpdateStatus,
} from '@berth/contracts';
import type { Engine } from '../../docker/index.js';
import type { SecretBox } from '../../platform/secret-box.js';
import type { ContainerSnapshot } from '../monitor/index.js';
import { UpdateChecks } from './checks.js';
import { credentialsFor, RegistryCredentials } from './credentials.js';
import { UpdateExecution, type OnStage } from './execution.js';
import { pullAndRecreate, type RecreateResult } from './pull-recreate.js';
import { PolicySettings } from './policy-settings.js';
import { InterruptedUpdates } from './recovery.js';
import type { Credentials } from './registry.js';
import { UpdateSchedule } from './schedule.js';
import { UpdateStatusView } from './status.js';
import type { CheckRun } from './update-check.js';
import { UpdatesContext, type ImageCheck, type UpdatesRuntime } from './updates-context.js';
import type { UpdatesStore } from './updates.store.js';

export type { ImageCheck, UpdateAlertsPort, UpdatesRuntime } from './updates-context.js';
export type { RecreateResult } from './pull-recreate.js';

/**
 * Image updates: finds newer versions (checks.ts), shows and sets a container's update
 * status (status.ts), applies them with live progress and health-verified rollback
 * (execution.ts, executor.ts), runs the daily check and auto-updates (schedule.ts), finishes
 * interrupted updates (recovery.ts), and owns update policies and registry credentials.
 * This class is the one entry the rest of Berth uses; it only hands calls on.
 */
export class UpdatesService {
  private readonly ctx: UpdatesContext;
  private readonly checks: UpdateChecks;
  private readonly view: UpdateStatusView;
  private readonly execution: UpdateExecution;
  private readonly interrupted: InterruptedUpdates;
  private readonly schedule: UpdateSchedule;
  private readonly policySettings: PolicySettings;
  private readonly credentials: RegistryCredentials;

  constructor(store: UpdatesStore, secrets: SecretBox, runtime: UpdatesRuntime) {
    this.ctx = new UpdatesContext(store, secrets, runtime);
    this.checks = new UpdateChecks(this.ctx);
    this.view = new UpdateStatusView(this.ctx);
    this.interrupted = new InterruptedUpdates(this.ctx);
    this.execution = new UpdateExecution(this.ctx, this.checks, this.interrupted);
    this.schedule = new UpdateSchedule(this.ctx, this.checks, this.execution, this.interrupted);
    this.policySettings = new PolicySettings(store);
    this.credentials = new RegistryCredentials(store, secrets);
  }

  /** Whether the named container, or the original of a backup so named, is being updated. */
  isUpdating(hostId: string, containerName: string): boolean {
    return this.ctx.isUpdating(hostId, containerName);
  }

  /** Last check-all result, for tests and the bench. */
  get lastRun(): { requests: number; ms: number } | null {
    return this.checks.lastRun;
  }

  /** How long a container without HEALTHCHECK must keep running to count as healthy. */
  get settleMs(): number {
    return this.ctx.settleMs;
  }

  set settleMs(ms: number) {
    this.ctx.settleMs = ms;
  }

  // ---- checks --------------------------------------------------------------------------

  credentialsFor(registry: string): Promise<Credentials | null> {
    return credentialsFor(this.ctx.store, this.ctx.secrets, registry);
  }

  newRun(trigger: CheckRun['trigger'] = 'manual'): CheckRun {
    return this.ctx.newRun(trigger);
  }

  /** Checks one container and records the result. Throws when the check cannot be made. */
  check(c: ContainerSnapshot, engine: Engine | null, run?: CheckRun): Promise<ImageCheck> {
    return this.checks.check(c, engine, run);
  }

  async checkOne(hostId: string, containerId: string): Promise<UpdateStatus> {
    const c = await this.checks.checkOne(hostId, containerId);
    return this.view.status(hostId, c.id);
  }

  /** Checks every container (the daily run skips compose ones when the setting says so). */
  checkAll(opts: Parameters<UpdateChecks['checkAll']>[0] = {}): Promise<CheckAllResponse> {
    return this.checks.checkAll(opts);
  }

  // ---- status and settings -------------------------------------------------------------

  status(hostId: string, containerId: string): Promise<UpdateStatus> {
    return this.view.status(hostId, containerId);
  }

  setConfig(
    hostId: string,
    containerId: string,
    body: Parameters<UpdateStatusView['setConfig']>[2],
    username: string,
  ): Promise<UpdateStatus> {
    return this.view.setConfig(hostId, containerId, body, username);
  }

  setPolicy(
    hostId: string,
    containerId: string,
    policy: UpdatePolicyValue | null,
    username: string,
  ): Promise<UpdateStatus> {
    return this.view.setPolicy(hostId, containerId, policy, username);
  }

  summary(): Promise<UpdatesSummary> {
    return this.view.summary();
  }

  /** Containers with an update waiting, per host. */
  countsByHost(): Promise<Map<string, number>> {
    return this.view.countsByHost();
  }

  // ---- execution -----------------------------------------------------------------------

  execute(
    hostId: string,
    containerId: string,
    opts: { force: boolean; username: string; auto?: boolean; onStage?: OnStage },
  ): Promise<ExecuteUpdateResponse> {
    return this.execution.execute(hostId, containerId, opts);
  }

  /** Pulls the container's own image and recreates it when that changed it (compose projects). */
  pullAndRecreate(
    hostId: string,
    containerId: string,
    opts: { username: string; onStage?: OnStage },
  ): Promise<RecreateResult> {
    return pullAndRecreate(this.ctx, this.execution, hostId, containerId, opts);
  }

  /** Back to the image the last update replaced (kept on the engine for this). */
  rollback(hostId: string, containerId: string, username: string): Promise<ExecuteUpdateResponse> {
    return this.execution.rollback(hostId, containerId, username);
  }

  // ---- schedule, auto-update, interrupted updates --------------------------------------

  start(): void {
    this.schedule.start();
  }

  stop(): void {
    this.schedule.stop();
  }

  /** Gives containers left aside by an interrupted update their name (and state) back. */
  recoverInterrupted(hostId: string): Promise<void> {
    return this.interrupted.recover(hostId);
  }

  /** When the next daily check runs (ms since epoch). */
  get nextRun(): number | null {
    return this.schedule.nextRun;
  }

  runScheduled(): Promise<void> {
    return this.schedule.runScheduled();
  }

  autoUpdate(): Promise<void> {
    return this.schedule.autoUpdate();
  }

  // ---- policies and registry credentials -----------------------------------------------

  policies(): Promise<UpdatePoliciesResponse> {
    return this.policySettings.list();
  }

  toggleCategory(category: UpdatePolicyCategory, enabled: boolean) {
    return this.policySettings.toggleCategory(category, enabled);
  }

  addCustom(pattern: string): Promise<UpdatePoliciesResponse> {
    return this.policySettings.addCustom(pattern);
  }

  deleteCustom(id: number): Promise<UpdatePoliciesResponse> {
    return this.policySettings.deleteCustom(id);
  }

  listCredentials(): Promise<RegistryCredential[]> {
    return this.credentials.list();
  }

  addCredential(body: RegistryCredentialCreate): Promise<RegistryCredential> {
    return this.credentials.add(body);
  }

  updateCredential(id: number, body: RegistryCredentialUpdate): Promise<RegistryCredential> {
    return this.credentials.update(id, body);
  }

  deleteCredential(id: number): Promise<void> {
    return this.credentials.remove(id);
  }
}
