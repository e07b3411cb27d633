import { parseContainerKey, type LiveMessage } from '@berth/contracts';

/**
 * The hosts a scoped client reaches: those with one of its tags (an unscoped client, null,
 * reaches every host). Clients with the same tags share one scope object and key, so a
 * message built for a scope is built and serialised once for all of them.
 */
export interface LiveScope {
  /** The same for the same tags in whatever order. */
  readonly key: string;
  readonly tags: ReadonlySet<string>;
  reaches(hostId: string): boolean;
}

export function liveScope(
  tags: ReadonlySet<string>,
  tagsOf: (hostId: string) => readonly string[],
): LiveScope {
  return {
    key: JSON.stringify([...tags].sort()),
    tags,
    reaches: (hostId) => tagsOf(hostId).some((tag) => tags.has(tag)),
  };
}

/**
 * Whom a message concerns: every client (a setting of the whole of Berth), the clients that
 * reach every one of these hosts, or unscoped clients only (Berth's own, or hosts the hub
 * cannot tell).
 */
export type Audience = 'everyone' | 'unscoped' | readonly string[];

/**
 * An event or alert of no host is Berth's own, not a scoped user's: as in the REST lists,
 * only unscoped clients get it.
 */
const ofHost = (hostId: string | null): Audience => (hostId === null ? 'unscoped' : [hostId]);

type AudienceOf = {
  [T in LiveMessage['type']]: (message: Extract<LiveMessage, { type: T }>) => Audience;
};

/**
 * Every message type and the hosts it names, so a new type fails to compile until it says
 * whom it concerns. A batch job's summary names no host: its publisher says which.
 */
const AUDIENCE: AudienceOf = {
  ping: () => 'everyone',
  pong: () => 'everyone',
  // Built per scope (publishByForm, sendTo): whole, they are for unscoped clients only.
  initial_state: () => 'unscoped',
  containers_update: () => 'unscoped',
  container_stats: (m) => {
    const parsed = parseContainerKey(m.data.key);
    return parsed === null ? 'unscoped' : [parsed.hostId];
  },
  new_event: (m) => ofHost(m.data.host_id),
  host_added: (m) => [m.data.host.id],
  host_removed: (m) => [m.data.host_id],
  host_status_changed: (m) => [m.data.host_id],
  auto_restart_success: (m) => [m.data.host_id],
  auto_restart_failed: (m) => [m.data.host_id],
  blackout_status_changed: () => 'everyone',
  batch_job_update: () => 'unscoped',
  batch_item_update: (m) => [m.data.host_id],
  container_update_progress: (m) => [m.data.host_id],
  container_update_layer_progress: (m) => [m.data.host_id],
  alert_raised: (m) => ofHost(m.data.alert.host_id),
  alert_resolved: (m) => ofHost(m.data.alert.host_id),
  alert_changed: (m) => ofHost(m.data.alert.host_id),
  health_check_status_changed: (m) => [m.data.host_id],
  container_recreated: (m) => [m.data.host_id],
  // Sent to one user's sockets (LiveHub.userChanged), never published to all.
  account_changed: () => 'everyone',
};

export function audienceOf(message: LiveMessage): Audience {
  return (AUDIENCE[message.type] as (m: LiveMessage) => Audience)(message);
}

/** Whether a client with this scope gets a message for this audience. */
export function scopeGets(scope: LiveScope | null, audience: Audience): boolean {
  if (scope === null || audience === 'everyone') return true;
  if (audience === 'unscoped') return false;
  return audience.every((hostId) => scope.reaches(hostId));
}
