import { z } from 'zod';
import { lazySchema } from './lazy-schema.js';

/**
 * Metrics history (decision 036): per host and per container, kept in three tiers that roll up
 * as time passes. Times in answers are Unix seconds (what charts plot); in queries, ISO 8601.
 */

/** The tiers, finest first: a point's resolution in seconds and its default retention. */
export const METRICS_TIERS = [
  { id: '10s', resolution: 10, default_retention_hours: 24 },
  { id: '1m', resolution: 60, default_retention_hours: 7 * 24 },
  { id: '15m', resolution: 900, default_retention_hours: 90 * 24 },
] as const;
export type MetricsTierId = (typeof METRICS_TIERS)[number]['id'];

const isoTime = lazySchema(() =>
  z.string().refine((v) => !Number.isNaN(Date.parse(v)), 'Invalid date; use ISO 8601'),
);

/**
 * GET …/metrics. `to` defaults to now and `from` to an hour before `to`; without `step` the
 * finest tier that still keeps `from` is chosen (coarser when it would give too many points).
 */
export const metricsQuerySchema = lazySchema(() =>
  z.strictObject({
    from: isoTime.optional(),
    to: isoTime.optional(),
    /** Seconds per point; at least the chosen tier's resolution. */
    step: z.coerce.number().int().positive().max(86_400).optional(),
  }),
);
export type MetricsQuery = z.infer<typeof metricsQuerySchema>;

/** A figure per point: the mean, and the lowest and highest sample it was made of. */
export const metricBandSchema = lazySchema(() =>
  z.object({
    min: z.array(z.number().nullable()),
    mean: z.array(z.number().nullable()),
    max: z.array(z.number().nullable()),
  }),
);
export type MetricBand = z.infer<typeof metricBandSchema>;

export const metricsHealthSchema = lazySchema(() =>
  z.enum(['healthy', 'starting', 'unhealthy', 'online', 'degraded', 'offline']),
);

/**
 * Columns of equal length, one entry per point that has data (a gap has no entry). `null`:
 * not measured (block I/O not yet sampled, disk of a container, a rate's first sample).
 */
export const metricsResponseSchema = lazySchema(() =>
  z.object({
    host_id: z.string(),
    /** The container's name (its series is kept under it after removal); null for the host. */
    container_name: z.string().nullable(),
    tier: z.enum(['10s', '1m', '15m']),
    /** Seconds per point. */
    step: z.number().int(),
    from: z.string(),
    to: z.string(),
    /** Each point's start, Unix seconds. */
    t: z.array(z.number().int()),
    cpu_percent: metricBandSchema,
    memory_bytes: metricBandSchema,
    memory_percent: metricBandSchema,
    net_rx_bytes_per_sec: metricBandSchema,
    net_tx_bytes_per_sec: metricBandSchema,
    block_read_bytes_per_sec: metricBandSchema,
    block_write_bytes_per_sec: metricBandSchema,
    /** The engine's data disk, percent used (host only). */
    disk_percent: metricBandSchema,
    /** Restarts by the restart policy (a host: the sum over its containers); the highest in the point. */
    restarts: z.array(z.number().int().nullable()),
    /** The worst health in the point: a container's health check, or the host's status. */
    health: z.array(metricsHealthSchema.nullable()),
  }),
);
export type MetricsResponse = z.infer<typeof metricsResponseSchema>;

export const hostMetricsParamsSchema = lazySchema(() =>
  z.strictObject({ hostId: z.string().min(1).max(100) }),
);
