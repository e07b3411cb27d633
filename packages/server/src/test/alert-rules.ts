/**
 * A rule raised at once when one of `containers` stops (docker kill) and resolved when it runs
 * again, notifying `channelIds`: the shortest way for a test to put a notification in the outbox.
 * The request body as a client sends it (channel ids as strings, the selector's other fields left
 * to their defaults).
 */
export const containerStoppedRule = (name: string, containers: string[], channelIds: number[]) => ({
  name,
  scope: 'container',
  kind: 'container_stopped',
  severity: 'critical',
  enabled: true,
  duration_seconds: 0,
  occurrences: 1,
  cooldown_seconds: 0,
  clear_duration_seconds: 0,
  auto_resolve: true,
  container_selector_json: { include: containers },
  notify_channels_json: channelIds.map(String),
});
