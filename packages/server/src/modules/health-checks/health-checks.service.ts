import {
  containerKey,
  HEALTH_CHECK_DEFAULTS,
  healthAuthSchema,
  SECRET_MASK,
  type HealthAuth,
  type HealthCheck,
  type HealthCheckConfigBody,
  type HealthCheckConfigs,
  type HealthCheckTestBody,
  type HealthCheckTestResult,
  type HealthStatus,
} from '@berth/contracts';
import { badRequest, notFound } from '../../platform/http-errors.js';
import type { SecretBox } from '../../platform/secret-box.js';
import type { ContainerSnapshot, Fleet } from '../monitor/index.js';
import type { CheckTarget } from './check-runner.js';
import { statusOf, unknownStatus } from './check-status.js';
import type { HealthChecker } from './checker.js';
import type { HealthCheckRow, HealthChecksStore } from './health-checks.store.js';

export interface HealthChecksDeps {
  fleet: Fleet;
  store: HealthChecksStore;
  box: SecretBox;
  checker: HealthChecker;
}

type Headers = Record<string, string>;

/** Config, status and one-off tests of a container's HTTP health check. */
export class HealthChecksService {
  constructor(private readonly deps: HealthChecksDeps) {}

  /** Reads every stored check and starts the checker. */
  async start(): Promise<void> {
    const rows = await this.deps.store.listAll();
    this.deps.checker.start(rows.map((row) => ({ row, target: this.targetOf(row) })));
  }

  stop(): Promise<void> {
    return this.deps.checker.stop();
  }

  /** While set, the container's check and its restarts wait (the updates module sets it). */
  setUpdating(hostId: string, containerName: string, updating: boolean): void {
    this.deps.checker.setUpdating(hostId, containerName, updating);
  }

  get(hostId: string, containerId: string): HealthCheck {
    const c = this.container(hostId, containerId);
    return this.answer(c, this.deps.checker.get(hostId, c.name));
  }

  async put(
    hostId: string,
    containerId: string,
    body: HealthCheckConfigBody,
  ): Promise<HealthCheck> {
    const c = this.container(hostId, containerId);
    const stored = this.deps.checker.get(hostId, c.name);
    const headers = this.mergeHeaders(body.headers_json, stored);
    const auth = this.mergeAuth(body.auth_config_json, stored);
    const row: HealthCheckRow = {
      ...(stored ?? unknownStatus()),
      host_id: hostId,
      container_name: c.name,
      enabled: body.enabled ? 1 : 0,
      url: body.url,
      method: body.method,
      expected_status_codes: body.expected_status_codes.replace(/\s+/g, ''),
      timeout_seconds: body.timeout_seconds,
      check_interval_seconds: body.check_interval_seconds,
      follow_redirects: body.follow_redirects ? 1 : 0,
      verify_ssl: body.verify_ssl ? 1 : 0,
      headers_sealed:
        Object.keys(headers).length === 0 ? null : this.deps.box.seal(JSON.stringify(headers)),
      auth_sealed: auth === null ? null : this.deps.box.seal(JSON.stringify(auth)),
      auto_restart_on_failure: body.auto_restart_on_failure ? 1 : 0,
      failure_threshold: body.failure_threshold,
      success_threshold: body.success_threshold,
      max_restart_attempts: body.max_restart_attempts,
      restart_retry_delay_seconds: body.restart_retry_delay_seconds,
      updated_at: new Date().toISOString(),
    };
    const saved = await this.deps.checker.put(row, this.targetOf(row));
    return this.answer(c, saved);
  }

  /** One request with the form's values; nothing is saved or counted. */
  async test(
    hostId: string,
    containerId: string,
    body: HealthCheckTestBody,
  ): Promise<HealthCheckTestResult> {
    const c = this.container(hostId, containerId);
    const stored = this.deps.checker.get(hostId, c.name);
    const headers = this.mergeHeaders(body.headers_json, stored);
    const auth = this.mergeAuth(body.auth_config_json, stored);
    const result = await this.deps.checker.runOnce(hostId, c, {
      url: body.url,
      method: body.method,
      expectedStatusCodes: body.expected_status_codes.replace(/\s+/g, ''),
      timeoutMs: body.timeout_seconds * 1000,
      followRedirects: body.follow_redirects,
      verifySsl: body.verify_ssl,
      headers: withAuth(headers, auth),
    });
    return {
      is_healthy: result.healthy,
      message: result.message,
      response_time_ms: result.responseTimeMs,
      status_code: result.statusCode,
      resolved_url: result.resolvedUrl,
    };
  }

  /** GET /api/health-check-configs: stored checks of containers that exist now. */
  configs(): HealthCheckConfigs {
    const out: HealthCheckConfigs = {};
    for (const row of this.deps.checker.all()) {
      const c = this.deps.fleet.containerByName(row.host_id, row.container_name);
      if (c === undefined) continue;
      out[containerKey(row.host_id, c.id)] = {
        enabled: row.enabled === 1,
        current_status: row.current_status as HealthStatus,
        consecutive_failures: row.consecutive_failures,
      };
    }
    return out;
  }

  private container(hostId: string, containerId: string): ContainerSnapshot {
    const c = this.deps.fleet.container(hostId, containerId);
    if (c === undefined) throw notFound('Container not found');
    return c;
  }

  private targetOf(row: HealthCheckRow): CheckTarget {
    return {
      url: row.url,
      method: row.method as CheckTarget['method'],
      expectedStatusCodes: row.expected_status_codes,
      timeoutMs: row.timeout_seconds * 1000,
      followRedirects: row.follow_redirects === 1,
      verifySsl: row.verify_ssl === 1,
      headers: withAuth(this.storedHeaders(row), this.storedAuth(row)),
    };
  }

  private storedHeaders(row: HealthCheckRow | undefined): Headers {
    if (row?.headers_sealed == null) return {};
    try {
      return JSON.parse(this.deps.box.open(row.headers_sealed)) as Headers;
    } catch {
      return {}; // sealed with another key: the operator sees no headers and re-enters them
    }
  }

  private storedAuth(row: HealthCheckRow | undefined): HealthAuth | null {
    if (row?.auth_sealed == null) return null;
    try {
      return healthAuthSchema.parse(JSON.parse(this.deps.box.open(row.auth_sealed)));
    } catch {
      return null;
    }
  }

  /** Absent or blank keeps the stored headers, null clears them, masked values keep theirs. */
  private mergeHeaders(
    text: string | null | undefined,
    stored: HealthCheckRow | undefined,
  ): Headers {
    const current = this.storedHeaders(stored);
    if (text === undefined || (text !== null && text.trim() === '')) return current;
    if (text === null) return {};
    const next = JSON.parse(text) as Headers;
    for (const [name, value] of Object.entries(next)) {
      if (value !== SECRET_MASK) continue;
      const kept = current[name];
      if (kept === undefined)
        throw badRequest(`headers_json: Header ${name} is masked but no value is stored; enter it`);
      next[name] = kept;
    }
    return next;
  }

  private mergeAuth(
    text: string | null | undefined,
    stored: HealthCheckRow | undefined,
  ): HealthAuth | null {
    const current = this.storedAuth(stored);
    if (text === undefined || (text !== null && text.trim() === '')) return current;
    if (text === null) return null;
    const parsed = JSON.parse(text) as Record<string, unknown>;
    if (Object.keys(parsed).length === 0) return null;
    const next = healthAuthSchema.parse(parsed);
    if (next.type === 'basic' && next.password === SECRET_MASK) {
      if (current?.type !== 'basic')
        throw badRequest('auth_config_json: The password is masked but none is stored; enter it');
      next.password = current.password;
    }
    if (next.type === 'bearer' && next.token === SECRET_MASK) {
      if (current?.type !== 'bearer')
        throw badRequest('auth_config_json: The token is masked but none is stored; enter it');
      next.token = current.token;
    }
    return next;
  }

  private answer(c: ContainerSnapshot, row: HealthCheckRow | undefined): HealthCheck {
    const { checker } = this.deps;
    const base = {
      host_id: c.hostId,
      container_id: c.id,
      container_name: c.name,
    };
    if (row === undefined)
      return {
        ...base,
        ...HEALTH_CHECK_DEFAULTS,
        ...unknownStatus(),
        current_status: 'unknown',
        configured: false,
        resolved_url: null,
        restart_attempts: 0,
        paused_reason: null,
      };
    const headers = this.storedHeaders(row);
    const auth = this.storedAuth(row);
    return {
      ...base,
      configured: true,
      enabled: row.enabled === 1,
      url: row.url,
      method: row.method as CheckTarget['method'],
      expected_status_codes: row.expected_status_codes,
      timeout_seconds: row.timeout_seconds,
      check_interval_seconds: row.check_interval_seconds,
      follow_redirects: row.follow_redirects === 1,
      verify_ssl: row.verify_ssl === 1,
      headers_json:
        Object.keys(headers).length === 0
          ? null
          : JSON.stringify(Object.fromEntries(Object.keys(headers).map((k) => [k, SECRET_MASK]))),
      auth_config_json: auth === null ? null : JSON.stringify(maskAuth(auth)),
      auto_restart_on_failure: row.auto_restart_on_failure === 1,
      failure_threshold: row.failure_threshold,
      success_threshold: row.success_threshold,
      max_restart_attempts: row.max_restart_attempts,
      restart_retry_delay_seconds: row.restart_retry_delay_seconds,
      ...statusOf(row),
      current_status: row.current_status as HealthStatus,
      resolved_url: checker.resolvedUrl(c.hostId, c.name),
      restart_attempts: checker.restartAttempts(c.hostId, c.name),
      paused_reason: checker.pausedReason(c.hostId, c.name),
    };
  }
}

function maskAuth(auth: HealthAuth): HealthAuth {
  return auth.type === 'basic'
    ? { ...auth, password: SECRET_MASK }
    : { ...auth, token: SECRET_MASK };
}

/** The auth config as an Authorization header (a configured auth wins over a header). */
function withAuth(headers: Headers, auth: HealthAuth | null): Headers {
  if (auth === null) return headers;
  const out = Object.fromEntries(
    Object.entries(headers).filter(([k]) => k.toLowerCase() !== 'authorization'),
  );
  out.Authorization =
    auth.type === 'basic'
      ? `Basic ${Buffer.from(`${auth.username}:${auth.password}`).toString('base64')}`
      : `Bearer ${auth.token}`;
  return out;
}
