import { z } from 'zod';
import { lazySchema } from './lazy-schema.js';

/**
 * Images per host and across the fleet (decision 041): list, inspect, remove, pull with live
 * layer progress, prune of dangling images with a dry run first.
 */

/** An image id as the engine gives it (`sha256:` and 64 hex digits) or its 12-digit short form. */
export const IMAGE_ID_PATTERN = /^(?:sha256:)?[0-9a-f]{12,64}$/;

/**
 * An image reference as `docker pull` takes it: an optional registry (a name with a dot or a
 * port, or localhost), a path of lower-case components, then a tag, a digest or both. No
 * whitespace, no scheme.
 */
export const IMAGE_REFERENCE_PATTERN =
  /^(?:(?:localhost(?::[0-9]{1,5})?|[a-zA-Z0-9](?:[a-zA-Z0-9-]*[a-zA-Z0-9])?(?:\.[a-zA-Z0-9](?:[a-zA-Z0-9-]*[a-zA-Z0-9])?)+(?::[0-9]{1,5})?|[a-zA-Z0-9](?:[a-zA-Z0-9-]*[a-zA-Z0-9])?:[0-9]{1,5})\/)?[a-z0-9]+(?:(?:[._]|__|-+)[a-z0-9]+)*(?:\/[a-z0-9]+(?:(?:[._]|__|-+)[a-z0-9]+)*)*(?::[A-Za-z0-9_][A-Za-z0-9_.-]{0,127})?(?:@sha256:[0-9a-f]{64})?$/;

/** A container that uses an image (its ImageID is the image's id). */
export const imageUserSchema = lazySchema(() =>
  z.object({
    /** Short id. */
    id: z.string(),
    name: z.string(),
    /** The engine's state: running, exited, paused, created, ... */
    state: z.string(),
  }),
);
export type ImageUser = z.infer<typeof imageUserSchema>;

/** One image on one host. */
export const imageSchema = lazySchema(() =>
  z.object({
    host_id: z.string(),
    host_name: z.string(),
    /** `sha256:` and 64 hex digits. */
    id: z.string(),
    /** The first 12 hex digits. */
    short_id: z.string(),
    /** `repository:tag` names; empty for a dangling image. */
    tags: z.array(z.string()),
    digests: z.array(z.string()),
    /** Bytes, layers shared with other images included. */
    size: z.number(),
    /** ISO 8601. */
    created: z.string(),
    /** Containers, running or not, whose image this is. */
    used_by: z.array(imageUserSchema),
    /** No tag: left behind when its tag moved to a newer image. */
    dangling: z.boolean(),
    /** No container uses it. */
    unused: z.boolean(),
  }),
);
export type Image = z.infer<typeof imageSchema>;

/** GET /images: every reachable host, or only `host`. */
export const imagesQuerySchema = lazySchema(() =>
  z.strictObject({ host: z.string().min(1).max(100).optional() }),
);
export type ImagesQuery = z.infer<typeof imagesQuerySchema>;

/** A host whose images could not be read: the list says so instead of hiding it. */
export const imagesHostFailureSchema = lazySchema(() =>
  z.object({ host_id: z.string(), host_name: z.string(), error: z.string() }),
);

export const imagesResponseSchema = lazySchema(() =>
  z.object({
    images: z.array(imageSchema),
    failed_hosts: z.array(imagesHostFailureSchema),
  }),
);
export type ImagesResponse = z.infer<typeof imagesResponseSchema>;

export const hostImagesParamsSchema = lazySchema(() => z.object({ hostId: z.string() }));

export const imageParamsSchema = lazySchema(() =>
  z.object({
    hostId: z.string(),
    imageId: z
      .string()
      .regex(IMAGE_ID_PATTERN, 'must be an image id (sha256: and hex digits, or 12 of them)'),
  }),
);
export type ImageParams = z.infer<typeof imageParamsSchema>;

/** One step of an image's history (`docker history`), newest first. */
export const imageHistoryEntrySchema = lazySchema(() =>
  z.object({
    /** ISO 8601; null when the engine does not know. */
    created: z.string().nullable(),
    created_by: z.string(),
    size: z.number(),
    comment: z.string(),
    tags: z.array(z.string()),
  }),
);

/** GET /hosts/:hostId/images/:imageId: the summary and what inspect and history add. */
export const imageDetailsSchema = lazySchema(() =>
  z.object({
    image: imageSchema,
    architecture: z.string(),
    os: z.string(),
    author: z.string(),
    /** The run configuration the image gives its containers. */
    config: z.object({
      cmd: z.array(z.string()).nullable(),
      entrypoint: z.array(z.string()).nullable(),
      env: z.array(z.string()),
      working_dir: z.string(),
      user: z.string(),
      exposed_ports: z.array(z.string()),
      volumes: z.array(z.string()),
      labels: z.record(z.string(), z.string()),
    }),
    layers: z.number().int(),
    history: z.array(imageHistoryEntrySchema),
  }),
);
export type ImageDetails = z.infer<typeof imageDetailsSchema>;

/** DELETE /hosts/:hostId/images/:imageId. `force` also removes it from stopped containers' use. */
export const imageRemoveQuerySchema = lazySchema(() =>
  z.strictObject({
    force: z
      .enum(['true', 'false'])
      .optional()
      .transform((v) => v === 'true'),
  }),
);

export const imageRemoveResponseSchema = lazySchema(() =>
  z.object({ untagged: z.array(z.string()), deleted: z.array(z.string()) }),
);
export type ImageRemoveResponse = z.infer<typeof imageRemoveResponseSchema>;

/** POST /hosts/:hostId/images/pull. */
export const imagePullBodySchema = lazySchema(() =>
  z.strictObject({
    reference: z
      .string()
      .trim()
      .min(1)
      .max(512)
      .regex(
        IMAGE_REFERENCE_PATTERN,
        'must be an image reference such as nginx:1.27 or registry.example.com/team/app:tag',
      ),
  }),
);
export type ImagePullBody = z.infer<typeof imagePullBodySchema>;

/** A layer as the pull's progress shows it. */
export const pullLayerSchema = lazySchema(() =>
  z.object({ id: z.string(), status: z.string(), total: z.number(), percent: z.number() }),
);

/**
 * The pull's answer is a stream of lines, one JSON object each: `progress` as layers move
 * (at most four a second), then `done` with the image's id, or `error` with the engine's
 * or registry's words.
 */
export const imagePullLineSchema = lazySchema(() =>
  z.discriminatedUnion('type', [
    z.object({
      type: z.literal('progress'),
      overall_progress: z.number(),
      summary: z.string(),
      layers: z.array(pullLayerSchema),
      speed_mbps: z.number().nullable(),
    }),
    z.object({ type: z.literal('done'), reference: z.string(), image_id: z.string().nullable() }),
    z.object({ type: z.literal('error'), detail: z.string() }),
  ]),
);
export type ImagePullLine = z.infer<typeof imagePullLineSchema>;

/** GET /hosts/:hostId/images/prune: what a prune would remove, computed from the list. */
export const imagePrunePreviewSchema = lazySchema(() =>
  z.object({
    count: z.number().int(),
    /** Bytes: the images' sizes; what the engine frees may be less where layers are shared. */
    space: z.number(),
    images: z.array(z.object({ id: z.string(), size: z.number(), created: z.string() })),
  }),
);
export type ImagePrunePreview = z.infer<typeof imagePrunePreviewSchema>;

/** POST /hosts/:hostId/images/prune: what the engine removed, in its words. */
export const imagePruneResponseSchema = lazySchema(() =>
  z.object({
    count: z.number().int(),
    deleted: z.array(z.string()),
    space_reclaimed: z.number(),
  }),
);
export type ImagePruneResponse = z.infer<typeof imagePruneResponseSchema>;
