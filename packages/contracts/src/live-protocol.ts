import { z } from 'zod';
import { containerSchema } from './containers.js';
import { hostSchema, hostStatsSchema, sparklinesSchema } from './hosts.js';
import { lazySchema } from './lazy-schema.js';

/**
 * The live channel's protocol versions (docs/decisions/015). A client names the version it
 * speaks in the channel URL's query (`/ws/?protocol=2`); one that names none, or a version the
 * server does not know, gets version 1: the messages in the shapes the product's spec gives,
 * which scripts, other dashboards and the spec's own client read. Newer versions change the
 * shapes of existing messages only for the clients that ask for them; a message type that is
 * new is sent to every client (the spec's client logs an unknown type and goes on).
 */
export const LIVE_PROTOCOL_PARAM = 'protocol';
/** The spec's shapes: every containers_update carries every container and whole series. */
export const LIVE_PROTOCOL_SPEC = 1;
/** Berth's own: containers_update as deltas with sequence numbers (live-delta.ts). */
export const LIVE_PROTOCOL_DELTAS = 2;
export type LiveProtocol = typeof LIVE_PROTOCOL_SPEC | typeof LIVE_PROTOCOL_DELTAS;

/** The version a client asked for in the channel URL's query; anything unknown is version 1. */
export function liveProtocolOf(query: unknown): LiveProtocol {
  const asked =
    typeof query === 'object' && query !== null
      ? (query as Record<string, unknown>)[LIVE_PROTOCOL_PARAM]
      : undefined;
  return asked === String(LIVE_PROTOCOL_DELTAS) ? LIVE_PROTOCOL_DELTAS : LIVE_PROTOCOL_SPEC;
}

/**
 * containers_update as version 1 sends it, on every stats tick and after every state change:
 * every container, and every series whole, keyed by host id or by container key
 * (host id, ':', short container id).
 */
export const specContainersUpdateSchema = lazySchema(() =>
  z.object({
    containers: z.array(containerSchema),
    host_metrics: z.record(z.string(), hostStatsSchema),
    host_sparklines: z.record(z.string(), sparklinesSchema),
    container_sparklines: z.record(z.string(), sparklinesSchema),
    timestamp: z.string(),
  }),
);
export type SpecContainersUpdate = z.infer<typeof specContainersUpdateSchema>;

/** initial_state as version 1 sends it: the containers too, as the spec's client refreshes them from it. */
export const specInitialStateSchema = lazySchema(() =>
  z.object({
    hosts: z.array(hostSchema),
    containers: z.array(containerSchema),
    blackout: z.object({ is_active: z.boolean() }),
  }),
);
export type SpecInitialState = z.infer<typeof specInitialStateSchema>;

/** The version 1 forms of the two messages whose shapes the versions differ in. */
export type SpecLiveMessage =
  | { type: 'containers_update'; data: SpecContainersUpdate }
  | { type: 'initial_state'; data: SpecInitialState };
