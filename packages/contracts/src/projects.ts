import { z } from 'zod';
import { containerStateSchema } from './containers.js';
import { lazySchema } from './lazy-schema.js';

/** Running: every container runs; stopped: none does; partial: some do. */
export const projectStateSchema = lazySchema(() => z.enum(['running', 'partial', 'stopped']));
export type ProjectState = z.infer<typeof projectStateSchema>;

export const projectContainerSchema = lazySchema(() =>
  z.object({
    id: z.string(),
    name: z.string(),
    image: z.string(),
    state: containerStateSchema,
    health: z.enum(['healthy', 'unhealthy', 'starting']).nullable(),
  }),
);
export type ProjectContainer = z.infer<typeof projectContainerSchema>;

export const projectServiceSchema = lazySchema(() =>
  z.object({
    name: z.string(),
    state: projectStateSchema,
    /** Services this one starts after, from `com.docker.compose.depends_on`. */
    depends_on: z.array(z.string()),
    containers: z.array(projectContainerSchema),
  }),
);
export type ProjectService = z.infer<typeof projectServiceSchema>;

export const projectSchema = lazySchema(() =>
  z.object({
    host_id: z.string(),
    host_name: z.string(),
    name: z.string(),
    state: projectStateSchema,
    working_dir: z.string().nullable(),
    config_files: z.array(z.string()),
    /** Services in start order (dependencies first, then by name). */
    services: z.array(projectServiceSchema),
    container_count: z.number(),
    running_count: z.number(),
  }),
);
export type Project = z.infer<typeof projectSchema>;

export const projectListQuerySchema = lazySchema(() =>
  z.strictObject({ host: z.string().max(100).optional() }),
);

export const projectParamsSchema = lazySchema(() =>
  z.strictObject({
    hostId: z.string().max(100),
    project: z
      .string()
      .max(255)
      .regex(/^[a-zA-Z0-9][a-zA-Z0-9_.-]*$/, 'Not a compose project name'),
  }),
);

export const projectActionSchema = lazySchema(() =>
  z.enum(['start', 'stop', 'restart', 'pull-recreate'], {
    message: 'Expected start, stop, restart or pull-recreate',
  }),
);
export type ProjectAction = z.infer<typeof projectActionSchema>;

export const projectActionParamsSchema = lazySchema(() =>
  projectParamsSchema.extend({ action: projectActionSchema }),
);

export const projectJobStepStatusSchema = lazySchema(() =>
  z.enum(['queued', 'running', 'completed', 'skipped', 'failed']),
);
export type ProjectJobStepStatus = z.infer<typeof projectJobStepStatusSchema>;

/** One container's part of a project action, in the order it runs. */
export const projectJobStepSchema = lazySchema(() =>
  z.object({
    /** What this step does to the container (a restart stops every container, then starts). */
    operation: z.enum(['start', 'stop', 'pull-recreate']),
    service: z.string(),
    container_id: z.string(),
    container_name: z.string(),
    status: projectJobStepStatusSchema,
    message: z.string().nullable(),
    /** The container that replaced it (pull-recreate). */
    new_container_id: z.string().nullable(),
  }),
);
export type ProjectJobStep = z.infer<typeof projectJobStepSchema>;

export const projectJobSchema = lazySchema(() =>
  z.object({
    job_id: z.string(),
    host_id: z.string(),
    project: z.string(),
    action: projectActionSchema,
    status: z.enum(['running', 'completed', 'failed']),
    /** How the steps were ordered, in words. */
    order: z.string(),
    created_by: z.string(),
    created_at: z.string(),
    completed_at: z.string().nullable(),
    steps: z.array(projectJobStepSchema),
  }),
);
export type ProjectJob = z.infer<typeof projectJobSchema>;

export const projectJobParamsSchema = lazySchema(() =>
  z.strictObject({ jobId: z.string().max(100) }),
);

/** One file the project's config_files label names: its text, or why Berth cannot show it. */
export const composeFileSchema = lazySchema(() =>
  z.object({
    path: z.string(),
    content: z.string().nullable(),
    size: z.number().nullable(),
    error: z.string().nullable(),
  }),
);
export type ComposeFile = z.infer<typeof composeFileSchema>;

export const composeFilesSchema = lazySchema(() =>
  z.object({
    /** Who read it: Berth itself (local socket), the host's agent, or nobody (why in `reason`). */
    source: z.enum(['local', 'agent', 'none']),
    reason: z.string().nullable(),
    files: z.array(composeFileSchema),
  }),
);
export type ComposeFiles = z.infer<typeof composeFilesSchema>;

/** The agent's answer to `POST /v1/compose-file`. */
export const agentComposeFileAnswerSchema = lazySchema(() =>
  z.object({ content: z.string(), size: z.number() }),
);
