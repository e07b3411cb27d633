import { randomUUID } from 'node:crypto';
import type { Project, ProjectAction, ProjectJob, ProjectJobStep } from '@berth/contracts';
import type { FastifyBaseLogger } from 'fastify';
import { conflict, notFound } from '../../platform/http-errors.js';
import type { AuditRecord } from '../audit/index.js';
import type { ContainersService } from '../containers/index.js';
import type { Fleet } from '../monitor/index.js';
import type { RecreateResult } from '../updates/index.js';
import { COMPOSE_LABELS } from '@berth/contracts';
import { waitForDependencies } from './dependency-wait.js';
import { hasDependencies, isUp } from './grouping.js';

/** Jobs kept for their progress panel; older finished ones go first. */
const MAX_JOBS = 200;
/** A finished job is forgotten after this long (its steps are in the audit log). */
const KEEP_FINISHED_MS = 60 * 60 * 1000;

export interface ProjectJobsDeps {
  fleet: Pick<Fleet, 'container'>;
  containers: Pick<ContainersService, 'act'>;
  updates: {
    pullAndRecreate(
      hostId: string,
      containerId: string,
      opts: {
        username: string;
        onStage?: (stage: string, progress: number, message: string) => void;
      },
    ): Promise<RecreateResult>;
  };
  audit?: { record(entry: AuditRecord): void };
  log: FastifyBaseLogger;
  /** How long a start waits for a service_healthy (or completed) dependency; 120 s unless told. */
  dependencyWaitMs?: number;
}

type Operation = ProjectJobStep['operation'];

/**
 * The steps of an action on a whole project, in the order they run: starts and
 * pull-and-recreate follow the services' start order (dependencies first, else by name);
 * stops run it backwards, so a service stops before what it depends on; a restart stops
 * every container backwards, then starts them forwards.
 */
export function planSteps(project: Project, action: ProjectAction): ProjectJobStep[] {
  const forward = project.services.flatMap((s) =>
    s.containers.map((c) => ({ service: s.name, container_id: c.id, container_name: c.name })),
  );
  const backward = [...forward].reverse();
  const step = (op: Operation) => (c: (typeof forward)[number]) => ({
    operation: op,
    ...c,
    status: 'queued' as const,
    message: null,
    new_container_id: null,
  });
  switch (action) {
    case 'start':
      return forward.map(step('start'));
    case 'stop':
      return backward.map(step('stop'));
    case 'restart':
      return [...backward.map(step('stop')), ...forward.map(step('start'))];
    case 'pull-recreate':
      return forward.map(step('pull-recreate'));
  }
}

/** The order in words, for the progress panel and the job's record. */
export function orderText(project: Project, action: ProjectAction): string {
  const by = hasDependencies(project)
    ? 'dependency order (com.docker.compose.depends_on)'
    : 'service name';
  const names = project.services.map((s) => s.name);
  if (action === 'stop') return `Stopped by reverse ${by}: ${[...names].reverse().join(' → ')}`;
  if (action === 'restart') return `Stopped by reverse ${by}, then started: ${names.join(' → ')}`;
  return `By ${by}: ${names.join(' → ')}`;
}

/**
 * Runs project actions one container at a time, in the planned order, and keeps each job in
 * memory for its progress panel (polled). One failure never stops the rest; one job per
 * project at a time.
 */
export class ProjectJobs {
  private readonly jobs = new Map<string, ProjectJob>();

  constructor(private readonly deps: ProjectJobsDeps) {}

  start(project: Project, action: ProjectAction, username: string): ProjectJob {
    const busy = [...this.jobs.values()].find(
      (j) => j.status === 'running' && j.host_id === project.host_id && j.project === project.name,
    );
    if (busy !== undefined)
      throw conflict(`An action on project ${project.name} is already running`);
    this.prune();
    const job: ProjectJob = {
      job_id: randomUUID(),
      host_id: project.host_id,
      project: project.name,
      action,
      status: 'running',
      order: orderText(project, action),
      created_by: username,
      created_at: new Date().toISOString(),
      completed_at: null,
      steps: planSteps(project, action),
    };
    this.jobs.set(job.job_id, job);
    void this.run(job, username).catch((err: unknown) => {
      this.deps.log.error({ err, job: job.job_id }, 'project job crashed');
      job.status = 'failed';
      job.completed_at = new Date().toISOString();
    });
    return job;
  }

  get(jobId: string, reaches: (hostId: string) => boolean): ProjectJob {
    const job = this.jobs.get(jobId);
    if (job === undefined || !reaches(job.host_id)) throw notFound('Project job not found');
    return job;
  }

  private prune(): void {
    const cutoff = Date.now() - KEEP_FINISHED_MS;
    for (const [id, job] of this.jobs)
      if (job.completed_at !== null && Date.parse(job.completed_at) < cutoff) this.jobs.delete(id);
    const finished = [...this.jobs.values()].filter((j) => j.status !== 'running');
    while (this.jobs.size >= MAX_JOBS && finished.length > 0) {
      const oldest = finished.shift();
      if (oldest !== undefined) this.jobs.delete(oldest.job_id);
    }
  }

  private async run(job: ProjectJob, username: string): Promise<void> {
    for (const step of job.steps) {
      step.status = 'running';
      const outcome = await this.perform(job, step, username).catch((err: unknown) => ({
        status: 'failed' as const,
        message: err instanceof Error ? err.message : String(err),
      }));
      step.status = outcome.status;
      step.message = outcome.message;
      this.deps.audit?.record({
        source: 'batch',
        actor: username,
        action: `container.${step.operation}`,
        host_id: job.host_id,
        container_id: step.container_id,
        container_name: step.container_name,
        target: `project ${job.project}`,
        error: outcome.status === 'failed' ? outcome.message : null,
      });
    }
    const failed = job.steps.filter((s) => s.status === 'failed').length;
    job.status = failed > 0 && failed === job.steps.length ? 'failed' : 'completed';
    job.completed_at = new Date().toISOString();
  }

  private async perform(
    job: ProjectJob,
    step: ProjectJobStep,
    username: string,
  ): Promise<{ status: ProjectJobStep['status']; message: string }> {
    const c = this.deps.fleet.container(job.host_id, step.container_id);
    if (c === undefined) return { status: 'failed', message: 'Container not found' };
    if (step.operation === 'pull-recreate') {
      const result = await this.deps.updates.pullAndRecreate(job.host_id, c.id, {
        username,
        onStage: (_stage, percent, message) => (step.message = `${message} (${percent}%)`),
      });
      step.new_container_id = result.new_container_id;
      const status =
        result.status === 'recreated'
          ? 'completed'
          : result.status === 'failed'
            ? 'failed'
            : 'skipped';
      return { status, message: result.message };
    }
    const up = isUp(c);
    if (step.operation === 'start' && up) return { status: 'skipped', message: 'Already running' };
    if (step.operation === 'stop' && !up) return { status: 'skipped', message: 'Already stopped' };
    if (step.operation === 'start') {
      step.message = 'Waiting for its dependencies';
      const why = await waitForDependencies({
        dependsOn: c.labels[COMPOSE_LABELS.dependsOn],
        containersOf: (service) =>
          job.steps.flatMap((s) => {
            const dep =
              s.service === service
                ? this.deps.fleet.container(job.host_id, s.container_id)
                : undefined;
            return dep === undefined || s.operation !== 'start' ? [] : [dep];
          }),
        ...(this.deps.dependencyWaitMs === undefined
          ? {}
          : { timeoutMs: this.deps.dependencyWaitMs }),
      });
      if (why !== null) return { status: 'failed', message: `Not started: ${why}` };
    }
    const done = await this.deps.containers.act(job.host_id, c.id, step.operation, username);
    return { status: 'completed', message: `Now ${done.state ?? 'removed'}` };
  }
}
