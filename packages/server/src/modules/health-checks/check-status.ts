import { containerKey, HEALTH_STATUS_UNKNOWN, type HealthStatus } from '@berth/contracts';
import type { EventInput } from '../events/index.js';
import type { HealthCheckRow, HealthStatusColumns } from './health-checks.store.js';
import type { ProbeResult } from '@berth/agent/http-probe';

// The status policy of a check: how results move the status, and what a change
// of status says in the event log. The checker decides when; this file decides what.

export function statusOf(row: HealthStatusColumns): HealthStatusColumns {
  return {
    current_status: row.current_status,
    last_checked_at: row.last_checked_at,
    last_success_at: row.last_success_at,
    last_failure_at: row.last_failure_at,
    consecutive_successes: row.consecutive_successes,
    consecutive_failures: row.consecutive_failures,
    last_response_time_ms: row.last_response_time_ms,
    last_error_message: row.last_error_message,
  };
}

export function unknownStatus(): HealthStatusColumns {
  return { ...HEALTH_STATUS_UNKNOWN };
}

/**
 * Counts one result into the row's counters and answers the status they lead to: healthy
 * after `success_threshold` passes in a row, unhealthy after `failure_threshold` failures.
 * The row is updated in place: this runs a hundred times a second with a thousand checks.
 */
export function countResult(r: HealthCheckRow, result: ProbeResult, at: string): HealthStatus {
  const old = r.current_status as HealthStatus;
  const successes = result.healthy ? r.consecutive_successes + 1 : 0;
  const failures = result.healthy ? 0 : r.consecutive_failures + 1;
  let status: HealthStatus = old;
  if (result.healthy && old !== 'healthy' && successes >= r.success_threshold) status = 'healthy';
  if (!result.healthy && old !== 'unhealthy' && failures >= r.failure_threshold)
    status = 'unhealthy';
  r.last_checked_at = at;
  if (result.healthy) r.last_success_at = at;
  else r.last_failure_at = at;
  r.consecutive_successes = successes;
  r.consecutive_failures = failures;
  r.last_response_time_ms = result.responseTimeMs;
  r.last_error_message = result.healthy ? null : result.message;
  return status;
}

/** The event-log entry of a status change; `message` is the result (or reason) behind it. */
export function statusChangeEvent(change: {
  hostId: string;
  hostName: string | null;
  /** The container's short id, when it still exists. */
  containerId: string | null;
  name: string;
  old: HealthStatus;
  status: HealthStatus;
  failures: number;
  message: string;
}): EventInput {
  const { name, status, message } = change;
  const unhealthy = status === 'unhealthy';
  return {
    severity: unhealthy ? 'error' : 'info',
    category: 'health_check',
    event_type: 'state_change',
    title: unhealthy
      ? `Health check failing: ${name}`
      : status === 'healthy'
        ? `Health check passing: ${name}`
        : `Health check reset: ${name}`,
    message: unhealthy
      ? `${change.failures} consecutive failure(s): ${message}`
      : status === 'healthy'
        ? message
        : `${message}; waiting for the next result`,
    old_state: change.old,
    new_state: status,
    host_id: change.hostId,
    host_name: change.hostName,
    container_id:
      change.containerId === null ? null : containerKey(change.hostId, change.containerId),
    container_name: name,
    triggered_by: 'system',
  };
}
