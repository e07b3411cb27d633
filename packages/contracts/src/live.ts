import { z } from 'zod';
import { alertSchema } from './alerts.js';
import { batchItemSchema, batchJobSummarySchema } from './batch.js';
import { containerKeySchema } from './common.js';
import { eventSchema } from './events.js';
import { healthCheckChangeSchema } from './health-checks.js';
import { hostSchema, hostStatusSchema } from './hosts.js';
import { containersUpdateSchema } from './live-delta.js';
import { lazySchema } from './lazy-schema.js';

/**
 * Every message of the live channel as protocol 2 (Berth's web app) has them, defined once.
 * The server publishes them through its hub; the client parses them with `liveMessageSchema`.
 * Version 1 clients get the same messages but for containers_update and initial_state, whose
 * spec shapes are in live-protocol.ts.
 */
const message = <T extends string, D extends z.ZodType>(type: T, data: D) =>
  z.object({ type: z.literal(type), data });

export const liveMessageSchema = lazySchema(() =>
  z.discriminatedUnion('type', [
    z.object({ type: z.literal('ping') }),
    z.object({ type: z.literal('pong') }),
    /**
     * Refreshes hosts and containers on connect. The containers are not repeated here: the full
     * containers_update sent just before it on the same socket carries them (with 1,000
     * containers, a second copy was ~680 KB for the browser to parse and check on its first
     * render).
     */
    message(
      'initial_state',
      z.object({
        hosts: z.array(hostSchema),
        blackout: z.object({ is_active: z.boolean() }),
      }),
    ),
    /** Full after connect or on request, deltas after that: live-delta.ts. */
    message('containers_update', containersUpdateSchema),
    message(
      'container_stats',
      z.object({
        key: z.string(),
        cpu_percent: z.number(),
        memory_percent: z.number(),
        network_rx: z.number(),
        network_tx: z.number(),
      }),
    ),
    message('new_event', eventSchema),
    message('host_added', z.object({ host: hostSchema })),
    message('host_removed', z.object({ host_id: z.string() })),
    message(
      'host_status_changed',
      z.object({ host_id: z.string(), status: hostStatusSchema, error: z.string().nullable() }),
    ),
    message(
      'auto_restart_success',
      z.object({
        host_id: z.string(),
        container_id: z.string(),
        container_name: z.string(),
        attempt: z.number(),
      }),
    ),
    message(
      'auto_restart_failed',
      z.object({
        host_id: z.string(),
        container_id: z.string(),
        container_name: z.string(),
        attempt: z.number(),
        error: z.string(),
      }),
    ),
    message(
      'blackout_status_changed',
      z.object({ is_blackout: z.boolean(), window_name: z.string().nullable() }),
    ),
    message('batch_job_update', batchJobSummarySchema),
    message('batch_item_update', batchItemSchema.extend({ job_id: z.string() })),
    message(
      'container_update_progress',
      z.object({
        host_id: z.string(),
        container_id: z.string(),
        stage: z.string(),
        progress: z.number(),
        message: z.string(),
      }),
    ),
    message(
      'container_update_layer_progress',
      z.object({
        host_id: z.string(),
        container_id: z.string(),
        overall_progress: z.number(),
        layers: z.array(
          z.object({ id: z.string(), status: z.string(), total: z.number(), percent: z.number() }),
        ),
        total_layers: z.number(),
        remaining_layers: z.number(),
        summary: z.string(),
        speed_mbps: z.number().nullable(),
      }),
    ),
    /** An alert was raised (or reopened); counts change without a refetch. */
    message('alert_raised', z.object({ alert: alertSchema })),
    message('alert_resolved', z.object({ alert: alertSchema })),
    /** Snoozed or unsnoozed (by hand, or when a snooze expires). */
    message('alert_changed', z.object({ alert: alertSchema })),
    /** An HTTP health check changed status (healthy, unhealthy, unknown). */
    message('health_check_status_changed', healthCheckChangeSchema),
    /**
     * The receiving user's role, host tags or sign-in changed: the browser reads its own
     * account again (`/me`) and draws what the role allows, without waiting for a reload.
     */
    message('account_changed', z.object({})),
    message(
      'container_recreated',
      // The open dialog follows the container by its composite keys.
      z.object({
        host_id: z.string(),
        old_composite_key: containerKeySchema,
        new_composite_key: containerKeySchema,
        container_name: z.string(),
      }),
    ),
  ]),
);
export type LiveMessage = z.infer<typeof liveMessageSchema>;
export type LiveMessageType = LiveMessage['type'];
/** The message of one type, e.g. `LiveMessageOf<'host_added'>`. */
export type LiveMessageOf<T extends LiveMessageType> = Extract<LiveMessage, { type: T }>;

/**
 * What a browser may send on the live channel: a ping, a request for the full container
 * state after it missed a containers_update (a gap in `seq`), or whether it shows container
 * sparklines now. Without them its containers_update messages leave them out; turning them on
 * is answered with a full state that has them.
 */
export const clientLiveMessageSchema = lazySchema(() =>
  z.discriminatedUnion('type', [
    z.object({ type: z.literal('ping') }),
    z.object({ type: z.literal('containers_resync') }),
    z.object({ type: z.literal('container_sparklines'), shown: z.boolean() }),
  ]),
);
export type ClientLiveMessage = z.infer<typeof clientLiveMessageSchema>;

/**
 * The query of the live channel's URL (/ws/?protocol=2&sparklines=0): with protocol 2
 * (live-protocol.ts), whether the browser shows container sparklines from the start (they are
 * sent unless it says 0). Version 1 clients always get them, as the spec's shapes have them.
 */
export const liveChannelQuerySchema = lazySchema(() =>
  z.object({
    sparklines: z.enum(['0', '1']).default('1'),
  }),
);

export * from './live-delta.js';
export * from './live-protocol.js';
