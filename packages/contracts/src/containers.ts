import { z } from 'zod';
import { lazySchema } from './lazy-schema.js';

/** Engine states plus 'stopped'; Berth reports what the engine says. */
export const containerStateSchema = lazySchema(() =>
  z.enum(['running', 'paused', 'stopped', 'exited', 'restarting', 'dead', 'created', 'removing']),
);
export type ContainerState = z.infer<typeof containerStateSchema>;

export const containerActionSchema = lazySchema(() =>
  z.enum(['start', 'stop', 'restart', 'pause', 'unpause', 'remove']),
);
export type ContainerAction = z.infer<typeof containerActionSchema>;

/** Each action in the past tense, as toasts and event titles write it. */
export const CONTAINER_ACTION_DONE: Record<ContainerAction, string> = {
  start: 'started',
  stop: 'stopped',
  restart: 'restarted',
  pause: 'paused',
  unpause: 'unpaused',
  remove: 'removed',
};

export const desiredStateSchema = lazySchema(() =>
  z.enum(['should_run', 'on_demand', 'unspecified']),
);
export type DesiredState = z.infer<typeof desiredStateSchema>;

/** A container as every screen uses it. Its key is `host_id:id`. */
/**
 * How far an image update may move the tag: exact (Respect Tag), patch (x.y.*),
 * minor (within the major version, recommended), latest.
 */
export const floatingTagModeSchema = lazySchema(() =>
  z.enum(['exact', 'patch', 'minor', 'latest'], {
    message: 'Expected exact, patch, minor or latest',
  }),
);
export type FloatingTagMode = z.infer<typeof floatingTagModeSchema>;

export const containerSchema = lazySchema(() =>
  z.object({
    host_id: z.string(),
    host_name: z.string(),
    /** The 12-character short id; `short_id` is the same. */
    id: z.string(),
    short_id: z.string(),
    name: z.string(),
    image: z.string(),
    state: containerStateSchema,
    status: z.string(),
    health: z.enum(['healthy', 'unhealthy', 'starting']).nullable(),
    exit_code: z.number().nullable(),
    created: z.string().nullable(),
    started_at: z.string().nullable(),
    restart_policy: z.string().nullable(),
    /** `host_ip:host_port:container_port/proto`, or `container_port/proto` when unpublished. */
    ports: z.array(z.string()),
    /** `source:destination` of each mount. */
    volumes: z.array(z.string()),
    env: z.record(z.string(), z.string()),
    labels: z.record(z.string(), z.string()),
    /** User tags plus derived `compose:<project>` and `swarm:<service>`. */
    tags: z.array(z.string()),
    auto_restart: z.boolean(),
    desired_state: desiredStateSchema,
    web_ui_url: z.string().nullable(),
    /** Whether the update checker may apply updates on its own, and how far. */
    auto_update_enabled: z.boolean(),
    floating_tag_mode: floatingTagModeSchema,
    cpu_percent: z.number().nullable(),
    memory_usage: z.number().nullable(),
    memory_limit: z.number().nullable(),
    memory_percent: z.number().nullable(),
    network_rx: z.number().nullable(),
    network_tx: z.number().nullable(),
    net_bytes_per_sec: z.number().nullable(),
  }),
);
export type Container = z.infer<typeof containerSchema>;

export const containerActionParamsSchema = lazySchema(() =>
  z.strictObject({
    hostId: z.string().min(1).max(100),
    containerId: z.string().min(1).max(100),
    action: containerActionSchema,
  }),
);

export const containerActionResponseSchema = lazySchema(() =>
  z.object({
    status: z.literal('success'),
    action: containerActionSchema,
    /** The state after the action; null when the container was removed. */
    state: containerStateSchema.nullable(),
  }),
);
export type ContainerActionResponse = z.infer<typeof containerActionResponseSchema>;

export const containersQuerySchema = lazySchema(() =>
  z.strictObject({
    host_id: z.string().max(100).optional(),
  }),
);

/** Container keys in routes: the host and the container (full or 12-character id). */
export const containerParamsSchema = lazySchema(() =>
  z.strictObject({
    hostId: z.string().min(1).max(100),
    containerId: z.string().min(1).max(100),
  }),
);

/** Tags derived from labels (compose:<project>, swarm:<service>): shown, never edited. */
export const DERIVED_TAG_PATTERN = /^(compose|swarm):/;
export const MAX_CONTAINER_TAGS = 50;

/** A tag as the drawer and bulk editors take it, checked again by the server. */
export const containerTagSchema = lazySchema(() =>
  z
    .string()
    .trim()
    .toLowerCase()
    .min(1, 'Tag cannot be empty')
    .max(24, 'Tag must be 1-24 characters')
    .regex(/^[a-z0-9._:-]+$/, 'Invalid characters (alphanumeric, -, _, :, . only)')
    .refine(
      (tag) => !DERIVED_TAG_PATTERN.test(tag),
      'Tags starting with compose: or swarm: are derived and cannot be edited',
    ),
);

export const containerTagsPatchSchema = lazySchema(() =>
  z.strictObject({
    tags_to_add: z.array(containerTagSchema).max(MAX_CONTAINER_TAGS).default([]),
    tags_to_remove: z.array(containerTagSchema).max(MAX_CONTAINER_TAGS).default([]),
  }),
);
export type ContainerTagsPatch = z.infer<typeof containerTagsPatchSchema>;

/** POST …/auto-restart. `container_name` is accepted for compatibility; the id decides. */
export const autoRestartBodySchema = lazySchema(() =>
  z.strictObject({
    enabled: z.boolean({ message: 'Required' }),
    container_name: z.string().max(255).optional(),
  }),
);

const webUiUrlSchema = lazySchema(() =>
  z
    .string()
    .trim()
    .max(2000, 'URL must be at most 2000 characters')
    .refine(
      (url) => url === '' || /^https?:\/\/[^\s]+$/.test(url),
      'Web UI URL must start with http:// or https://',
    )
    .transform((url) => (url === '' ? null : url)),
);

/** POST …/desired-state; `web_ui_url` null or empty clears it, absent keeps it. */
export const desiredStateBodySchema = lazySchema(() =>
  z.strictObject({
    desired_state: desiredStateSchema,
    container_name: z.string().max(255).optional(),
    web_ui_url: webUiUrlSchema.nullable().optional(),
  }),
);
export type DesiredStateBody = z.infer<typeof desiredStateBodySchema>;

/** `all` in the viewer is sent as this many lines; it is also the ceiling. */
export const MAX_LOG_TAIL = 10_000;

/** GET …/logs: the last `tail` lines, or those after `since` (ISO date or Unix seconds). */
export const containerLogsQuerySchema = lazySchema(() =>
  z.strictObject({
    tail: z.coerce.number().int().min(1).max(MAX_LOG_TAIL).default(100),
    since: z
      .string()
      .max(40)
      .refine(
        (v) => /^\d+(\.\d+)?$/.test(v) || !Number.isNaN(Date.parse(v)),
        'Invalid date; use ISO 8601 or Unix seconds',
      )
      .optional(),
  }),
);

export const logLineSchema = lazySchema(() =>
  z.object({
    /** The engine's RFC 3339 timestamp of the line; null when the engine gave none. */
    timestamp: z.string().nullable(),
    log: z.string(),
    stream: z.enum(['stdout', 'stderr']),
  }),
);
export type LogLine = z.infer<typeof logLineSchema>;

export const containerLogsResponseSchema = lazySchema(() =>
  z.object({
    container_id: z.string(),
    container_name: z.string(),
    logs: z.array(logLineSchema),
  }),
);
export type ContainerLogsResponse = z.infer<typeof containerLogsResponseSchema>;

/** GET /api/auto-update-configs: per composite key host_id:container_id. */
export const autoUpdateConfigsSchema = lazySchema(() =>
  z.record(
    z.string(),
    z.object({ auto_update_enabled: z.boolean(), floating_tag_mode: floatingTagModeSchema }),
  ),
);
export type AutoUpdateConfigs = z.infer<typeof autoUpdateConfigsSchema>;
