import { z } from 'zod';
import { HEALTH_CHECK_METHODS, parseStatusCodes } from './agent-wire.js';
import { lazySchema } from './lazy-schema.js';

// What an agent's probe needs of a check, kept zod-free for the agent.
export { HEALTH_CHECK_METHODS, parseStatusCodes, type HealthCheckMethod } from './agent-wire.js';

/**
 * HTTP health checks of one container. Berth itself calls
 * the URL at the check's interval; the config follows the container by host and name.
 */

/** A new check's settings: off, and every field at its default. */
export const HEALTH_CHECK_DEFAULTS = {
  enabled: false,
  url: '',
  method: 'GET',
  expected_status_codes: '200',
  timeout_seconds: 10,
  check_interval_seconds: 60,
  follow_redirects: true,
  verify_ssl: true,
  headers_json: null,
  auth_config_json: null,
  auto_restart_on_failure: false,
  failure_threshold: 3,
  success_threshold: 1,
  max_restart_attempts: 3,
  restart_retry_delay_seconds: 120,
} as const;

/** The status of a check without a result: never run, or reset by a change of its target. */
export const HEALTH_STATUS_UNKNOWN = {
  current_status: 'unknown',
  last_checked_at: null,
  last_success_at: null,
  last_failure_at: null,
  consecutive_successes: 0,
  consecutive_failures: 0,
  last_response_time_ms: null,
  last_error_message: null,
} as const;

/** The fields' bounds; the form and the server read the same numbers. */
export const HEALTH_CHECK_BOUNDS = {
  timeout_seconds: { min: 5, max: 60, label: 'Timeout', unit: ' seconds' },
  check_interval_seconds: { min: 10, max: 3600, label: 'Interval', unit: ' seconds' },
  failure_threshold: { min: 1, max: 10, label: 'Failure threshold', unit: '' },
  success_threshold: { min: 1, max: 10, label: 'Success threshold', unit: '' },
  max_restart_attempts: { min: 1, max: 10, label: 'Max restart attempts', unit: '' },
  restart_retry_delay_seconds: { min: 30, max: 600, label: 'Retry delay', unit: ' seconds' },
} as const;
export type HealthCheckBounded = keyof typeof HEALTH_CHECK_BOUNDS;

/** The UI polls the config every max(interval, this) seconds while enabled. */
export const HEALTH_CHECK_MIN_POLL_SECONDS = 10;
/** Restart safety window: at most this many restarts of a container in it. */
export const HEALTH_RESTART_WINDOW_MS = 10 * 60_000;
export const HEALTH_RESTART_WINDOW_MAX = 12;
/** A masked secret in answers; sent back unchanged, it keeps the stored value. */
export const SECRET_MASK = '********';
/** `{container_ip}` in a URL is replaced by the container's address from inspect. */
export const CONTAINER_IP_PLACEHOLDER = '{container_ip}';

export const healthCheckMethodSchema = lazySchema(() =>
  z.enum(HEALTH_CHECK_METHODS, {
    message: 'Method must be GET, POST or HEAD',
  }),
);
export const healthStatusSchema = lazySchema(() => z.enum(['healthy', 'unhealthy', 'unknown']));
export type HealthStatus = z.infer<typeof healthStatusSchema>;

export const statusCodesSchema = lazySchema(() =>
  z
    .string()
    .trim()
    .max(200, 'Expected status codes are too long')
    .refine(
      (v) => parseStatusCodes(v) !== null,
      "Use '200', '200-299' or '200,201,204' (codes 100-599)",
    ),
);

/** The URL as the container's address would make it, for parsing. */
const withPlaceholderIp = (url: string) => url.split(CONTAINER_IP_PLACEHOLDER).join('127.0.0.1');

/** Null when the URL is acceptable; otherwise the reason. */
export function checkUrlProblem(url: string): string | null {
  if (url.length > 500) return 'URL must be at most 500 characters';
  if (/\s/.test(url)) return 'URL must not contain spaces';
  if (!/^https?:\/\//i.test(url)) return 'URL must start with http:// or https://';
  const parsed = z.url({ protocol: /^https?$/ }).safeParse(withPlaceholderIp(url));
  if (!parsed.success) return 'Invalid URL format';
  return null;
}

const urlSchema = lazySchema(() =>
  z
    .string()
    .trim()
    .max(500, 'URL must be at most 500 characters')
    .refine((v) => v === '' || checkUrlProblem(v) === null, {
      error: (issue) => checkUrlProblem(String(issue.input)) ?? 'Invalid URL format',
    }),
);

const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]{1,100}$/;
const MAX_HEADERS = 20;

/** Null when `text` is a JSON object of header names to string values; otherwise the reason. */
export function checkHeadersProblem(text: string): string | null {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return 'Headers must be valid JSON';
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed))
    return 'Headers must be a JSON object of name to value';
  const entries = Object.entries(parsed);
  if (entries.length > MAX_HEADERS) return `At most ${MAX_HEADERS} headers`;
  for (const [name, value] of entries) {
    if (!HEADER_NAME.test(name)) return `Invalid header name: ${name.slice(0, 100)}`;
    if (typeof value !== 'string') return `Header ${name} must have a string value`;
    if (/[\r\n\0]/.test(value) || value.length > 4000) return `Invalid value for header ${name}`;
    if (['host', 'content-length', 'transfer-encoding', 'connection'].includes(name.toLowerCase()))
      return `Header ${name} cannot be set`;
  }
  return null;
}

/** Basic or bearer authentication for the check's request. */
export const healthAuthSchema = lazySchema(() =>
  z.discriminatedUnion('type', [
    z.strictObject({
      type: z.literal('basic'),
      username: z.string().max(200),
      password: z.string().max(1000),
    }),
    z.strictObject({ type: z.literal('bearer'), token: z.string().min(1).max(4000) }),
  ]),
);
export type HealthAuth = z.infer<typeof healthAuthSchema>;

export function checkAuthProblem(text: string): string | null {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return 'Auth config must be valid JSON';
  }
  if (parsed !== null && typeof parsed === 'object' && Object.keys(parsed).length === 0)
    return null;
  return healthAuthSchema.safeParse(parsed).success
    ? null
    : 'Auth config must be {"type":"basic","username","password"} or {"type":"bearer","token"}';
}

/**
 * A JSON text field: null clears it, absent or blank keeps what is stored, masked values
 * inside keep the stored secret they stand for.
 */
const jsonText = (problem: (text: string) => string | null) =>
  z
    .string()
    .max(20_000, 'Too long')
    .refine((v) => v.trim() === '' || problem(v) === null, {
      error: (issue) => problem(String(issue.input)) ?? 'Invalid JSON',
    })
    .nullable()
    .optional();

const bounded = (key: HealthCheckBounded) => {
  const { min, max, label, unit } = HEALTH_CHECK_BOUNDS[key];
  const message = `${label} must be between ${min} and ${max}${unit}`;
  return z
    .number({ message: `${label} must be a number` })
    .int(`${label} must be a whole number`)
    .min(min, message)
    .max(max, message);
};

/** PUT …/http-health-check. Omitted fields take the defaults above. */
export const healthCheckConfigBodySchema = lazySchema(() =>
  z
    .object({
      enabled: z.boolean().default(HEALTH_CHECK_DEFAULTS.enabled),
      url: urlSchema.default(''),
      method: healthCheckMethodSchema.default(HEALTH_CHECK_DEFAULTS.method),
      expected_status_codes: statusCodesSchema.default(HEALTH_CHECK_DEFAULTS.expected_status_codes),
      timeout_seconds: bounded('timeout_seconds').default(HEALTH_CHECK_DEFAULTS.timeout_seconds),
      check_interval_seconds: bounded('check_interval_seconds').default(
        HEALTH_CHECK_DEFAULTS.check_interval_seconds,
      ),
      follow_redirects: z.boolean().default(HEALTH_CHECK_DEFAULTS.follow_redirects),
      verify_ssl: z.boolean().default(HEALTH_CHECK_DEFAULTS.verify_ssl),
      headers_json: jsonText(checkHeadersProblem),
      auth_config_json: jsonText(checkAuthProblem),
      auto_restart_on_failure: z.boolean().default(HEALTH_CHECK_DEFAULTS.auto_restart_on_failure),
      failure_threshold: bounded('failure_threshold').default(
        HEALTH_CHECK_DEFAULTS.failure_threshold,
      ),
      success_threshold: bounded('success_threshold').default(
        HEALTH_CHECK_DEFAULTS.success_threshold,
      ),
      max_restart_attempts: bounded('max_restart_attempts').default(
        HEALTH_CHECK_DEFAULTS.max_restart_attempts,
      ),
      restart_retry_delay_seconds: bounded('restart_retry_delay_seconds').default(
        HEALTH_CHECK_DEFAULTS.restart_retry_delay_seconds,
      ),
    })
    .superRefine((body, ctx) => {
      if (body.enabled && body.url === '')
        ctx.addIssue({ code: 'custom', path: ['url'], message: 'URL is required' });
    }),
);
export type HealthCheckConfigBody = z.infer<typeof healthCheckConfigBodySchema>;
export type HealthCheckConfigInput = z.input<typeof healthCheckConfigBodySchema>;

/** POST …/http-health-check/test: the form's values, tried once, not saved. */
export const healthCheckTestBodySchema = lazySchema(() =>
  z.object({
    url: z
      .string()
      .trim()
      .min(1, 'URL is required')
      .refine((v) => checkUrlProblem(v) === null, {
        error: (issue) => checkUrlProblem(String(issue.input)) ?? 'Invalid URL format',
      }),
    method: healthCheckMethodSchema.default(HEALTH_CHECK_DEFAULTS.method),
    expected_status_codes: statusCodesSchema.default(HEALTH_CHECK_DEFAULTS.expected_status_codes),
    timeout_seconds: bounded('timeout_seconds').default(HEALTH_CHECK_DEFAULTS.timeout_seconds),
    follow_redirects: z.boolean().default(HEALTH_CHECK_DEFAULTS.follow_redirects),
    verify_ssl: z.boolean().default(HEALTH_CHECK_DEFAULTS.verify_ssl),
    headers_json: jsonText(checkHeadersProblem),
    auth_config_json: jsonText(checkAuthProblem),
  }),
);
export type HealthCheckTestBody = z.infer<typeof healthCheckTestBodySchema>;

export const healthCheckTestResultSchema = lazySchema(() =>
  z.object({
    is_healthy: z.boolean(),
    message: z.string(),
    response_time_ms: z.number().nullable(),
    status_code: z.number().nullable(),
    /** The address actually called (after `{container_ip}` was resolved). */
    resolved_url: z.string().nullable(),
  }),
);
export type HealthCheckTestResult = z.infer<typeof healthCheckTestResultSchema>;

export const healthCheckTestResponseSchema = lazySchema(() =>
  z.object({
    success: z.literal(true),
    test_result: healthCheckTestResultSchema,
  }),
);
export type HealthCheckTestResponse = z.infer<typeof healthCheckTestResponseSchema>;

/** GET/PUT …/http-health-check: the config (secrets masked) and its status. */
export const healthCheckSchema = lazySchema(() =>
  z.object({
    host_id: z.string(),
    container_id: z.string(),
    container_name: z.string(),
    /** False for the disabled default of a container with nothing stored. */
    configured: z.boolean(),
    enabled: z.boolean(),
    url: z.string(),
    method: healthCheckMethodSchema,
    expected_status_codes: z.string(),
    timeout_seconds: z.number(),
    check_interval_seconds: z.number(),
    follow_redirects: z.boolean(),
    verify_ssl: z.boolean(),
    /** Header names with their values masked; null when none. */
    headers_json: z.string().nullable(),
    /** The auth config with the password or token masked; null when none. */
    auth_config_json: z.string().nullable(),
    auto_restart_on_failure: z.boolean(),
    failure_threshold: z.number(),
    success_threshold: z.number(),
    max_restart_attempts: z.number(),
    restart_retry_delay_seconds: z.number(),
    current_status: healthStatusSchema,
    last_checked_at: z.string().nullable(),
    last_success_at: z.string().nullable(),
    last_failure_at: z.string().nullable(),
    consecutive_successes: z.number(),
    consecutive_failures: z.number(),
    last_response_time_ms: z.number().nullable(),
    last_error_message: z.string().nullable(),
    /** The address the last check called (placeholder resolved); null before the first. */
    resolved_url: z.string().nullable(),
    /** Restarts in the current unhealthy episode. */
    restart_attempts: z.number(),
    /** Why checks or restarts are held back right now (updating, stopped by a user, window). */
    paused_reason: z.string().nullable(),
  }),
);
export type HealthCheck = z.infer<typeof healthCheckSchema>;

/** GET /api/health-check-configs: per composite key host_id:container_id. */
export const healthCheckConfigsSchema = lazySchema(() =>
  z.record(
    z.string(),
    z.object({
      enabled: z.boolean(),
      current_status: healthStatusSchema,
      consecutive_failures: z.number(),
    }),
  ),
);
export type HealthCheckConfigs = z.infer<typeof healthCheckConfigsSchema>;

/** The live message sent on every status transition. */
export const healthCheckChangeSchema = lazySchema(() =>
  z.object({
    host_id: z.string(),
    container_id: z.string(),
    container_name: z.string(),
    old_status: healthStatusSchema,
    new_status: healthStatusSchema,
    consecutive_failures: z.number(),
    last_error_message: z.string().nullable(),
  }),
);
export type HealthCheckChange = z.infer<typeof healthCheckChangeSchema>;
