import { z } from 'zod';
import { lazySchema } from './lazy-schema.js';

/**
 * Volumes and networks per host and across the fleet (decision 042). Names follow the
 * engine's own rule for volume and network names, so a bad one is refused with the field's
 * name before the engine is asked.
 */

export const ENGINE_NAME_PATTERN = /^[a-zA-Z0-9][a-zA-Z0-9_.-]+$/;
const ENGINE_NAME_RULE =
  'must start with a letter or digit and hold only letters, digits, _ . - (2 characters at least)';

/** A volume or network name a request gives. */
export const engineNameSchema = lazySchema(() =>
  z.string().trim().max(255).regex(ENGINE_NAME_PATTERN, ENGINE_NAME_RULE),
);

/** A driver's name (`local`, `bridge`, a plugin's `vieux/sshfs:latest`). */
export const driverNameSchema = lazySchema(() =>
  z
    .string()
    .trim()
    .min(1)
    .max(255)
    .regex(/^[a-zA-Z0-9][a-zA-Z0-9_.:/-]*$/, 'must be a driver name, e.g. local'),
);

/** Labels and driver options: keys without spaces, at most 100 of them. */
export const engineStringMapSchema = lazySchema(() =>
  z
    .record(
      z
        .string()
        .min(1)
        .max(255)
        .regex(/^[^\s=]+$/, 'keys must not be empty or hold spaces or ='),
      z.string().max(4096),
    )
    .refine((m) => Object.keys(m).length <= 100, 'must have at most 100 entries'),
);

/** A container that uses a volume or network: running ones block removal, stopped ones too for volumes. */
export const resourceDependantSchema = lazySchema(() =>
  z.object({
    /** 12-character id. */
    id: z.string(),
    name: z.string(),
    /** The engine's state: running, exited, created… */
    state: z.string(),
  }),
);
export type ResourceDependant = z.infer<typeof resourceDependantSchema>;

/** How a host answered a fleet-wide list: its entries are there, or why not. */
export const resourceHostReadSchema = lazySchema(() =>
  z.object({
    host_id: z.string(),
    host_name: z.string(),
    /** Offline, out of time, or the engine's error; null when the host answered. */
    error: z.string().nullable(),
  }),
);
export type ResourceHostRead = z.infer<typeof resourceHostReadSchema>;

export const volumeSchema = lazySchema(() =>
  z.object({
    host_id: z.string(),
    host_name: z.string(),
    name: z.string(),
    driver: z.string(),
    scope: z.string(),
    mountpoint: z.string(),
    /** ISO 8601; null when the engine does not say. */
    created: z.string().nullable(),
    labels: z.record(z.string(), z.string()),
    options: z.record(z.string(), z.string()),
    /** Bytes on disk as the engine measured them; null when not asked, not measured or unknown. */
    size_bytes: z.number().nullable(),
    /** Containers (whatever their state) that mount it. Empty: unused. */
    in_use_by: z.array(resourceDependantSchema),
  }),
);
export type Volume = z.infer<typeof volumeSchema>;

/** GET /volumes: `host` narrows to one host; `sizes=true` asks each engine's `/system/df`. */
export const volumesQuerySchema = lazySchema(() =>
  z.strictObject({
    host: z.string().min(1).max(100).optional(),
    sizes: z.enum(['true', 'false']).optional(),
  }),
);
export type VolumesQuery = z.infer<typeof volumesQuerySchema>;

export const volumesResponseSchema = lazySchema(() =>
  z.object({
    volumes: z.array(volumeSchema),
    hosts: z.array(resourceHostReadSchema),
    /** Why sizes are missing (not asked, or the engine's df did not answer in time), else null. */
    sizes_note: z.string().nullable(),
  }),
);
export type VolumesResponse = z.infer<typeof volumesResponseSchema>;

/** The host a volumes or networks route acts on. */
export const resourceHostParamsSchema = lazySchema(() =>
  z.strictObject({ hostId: z.string().min(1).max(100) }),
);

export const volumeParamsSchema = lazySchema(() =>
  z.strictObject({ hostId: z.string().min(1).max(100), name: z.string().min(1).max(255) }),
);

/** Inspect: the list's entry and the engine's own answer, whole. */
export const volumeDetailsSchema = lazySchema(() =>
  z.object({ volume: volumeSchema, raw: z.record(z.string(), z.unknown()) }),
);
export type VolumeDetails = z.infer<typeof volumeDetailsSchema>;

export const volumeCreateSchema = lazySchema(() =>
  z.strictObject({
    /** Left out: the engine names it (an anonymous volume). */
    name: engineNameSchema.optional(),
    driver: driverNameSchema.default('local'),
    labels: engineStringMapSchema.default({}),
    driver_opts: engineStringMapSchema.default({}),
  }),
);
export type VolumeCreate = z.input<typeof volumeCreateSchema>;

/** `force=true` also removes the stopped containers that mount it (never running ones). */
export const volumeRemoveQuerySchema = lazySchema(() =>
  z.strictObject({ force: z.enum(['true', 'false']).optional() }),
);

export const volumeRemoveResponseSchema = lazySchema(() =>
  z.object({
    name: z.string(),
    /** Stopped containers a forced removal removed first. */
    removed_containers: z.array(z.string()),
  }),
);
export type VolumeRemoveResponse = z.infer<typeof volumeRemoveResponseSchema>;

/** GET …/prune/volumes: what a prune would remove now, nothing removed. */
export const volumePrunePreviewSchema = lazySchema(() =>
  z.object({
    host_id: z.string(),
    names: z.array(z.string()),
    /** Their size together, when the engine measured every one of them; else null. */
    space_bytes: z.number().nullable(),
  }),
);
export type VolumePrunePreview = z.infer<typeof volumePrunePreviewSchema>;

/** POST …/prune/volumes: the names the preview showed; only those, and only if still unused. */
export const volumePruneBodySchema = lazySchema(() =>
  z.strictObject({ names: z.array(z.string().min(1).max(255)).min(1).max(5000) }),
);
export type VolumePruneBody = z.infer<typeof volumePruneBodySchema>;

export const resourcePruneResultSchema = lazySchema(() =>
  z.object({
    removed: z.array(z.string()),
    /** Each name not removed and why (now in use, gone, the engine's refusal). */
    skipped: z.array(z.object({ name: z.string(), reason: z.string() })),
    /** Space freed by what was removed, when it was measured; else null. */
    space_bytes: z.number().nullable(),
  }),
);
export type ResourcePruneResult = z.infer<typeof resourcePruneResultSchema>;
