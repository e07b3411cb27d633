import {
  HEALTH_CHECK_BOUNDS,
  type HealthCheck,
  type HealthCheckBounded,
  type HealthCheckMethod,
  type HealthCheckTestBody,
} from '@berth/contracts';

// The Health Check tab's form as values: from a stored check, to a save or a Check Now body.

/** The form's values; numbers stay text while typed. */
export interface HealthCheckFormValues {
  enabled: boolean;
  url: string;
  method: HealthCheckMethod;
  expected_status_codes: string;
  follow_redirects: boolean;
  verify_ssl: boolean;
  headers_json: string;
  auth_config_json: string;
  auto_restart_on_failure: boolean;
  numbers: Record<HealthCheckBounded, string>;
}

const NUMBER_FIELDS = Object.keys(HEALTH_CHECK_BOUNDS) as HealthCheckBounded[];

export const formOf = (h: HealthCheck): HealthCheckFormValues => ({
  enabled: h.enabled,
  url: h.url,
  method: h.method,
  expected_status_codes: h.expected_status_codes,
  follow_redirects: h.follow_redirects,
  verify_ssl: h.verify_ssl,
  headers_json: h.headers_json ?? '',
  auth_config_json: h.auth_config_json ?? '',
  auto_restart_on_failure: h.auto_restart_on_failure,
  numbers: Object.fromEntries(
    NUMBER_FIELDS.map((k) => [k, String(h[k])]),
  ) as HealthCheckFormValues['numbers'],
});

const num = (v: string) => (v.trim() === '' ? Number.NaN : Number(v));

/** The body of a save; headers and auth left blank keep what is stored. */
export const bodyOf = (f: HealthCheckFormValues) => ({
  enabled: f.enabled,
  url: f.url.trim(),
  method: f.method,
  expected_status_codes: f.expected_status_codes.trim(),
  follow_redirects: f.follow_redirects,
  verify_ssl: f.verify_ssl,
  // Blank or masked keeps what is stored; {} removes it.
  headers_json: f.headers_json,
  auth_config_json: f.auth_config_json,
  auto_restart_on_failure: f.auto_restart_on_failure,
  ...(Object.fromEntries(NUMBER_FIELDS.map((k) => [k, num(f.numbers[k])])) as Record<
    HealthCheckBounded,
    number
  >),
});

/** What Check Now sends: the form's request, saved or not. */
export function testBodyOf(f: HealthCheckFormValues): HealthCheckTestBody {
  const body = bodyOf(f);
  return {
    url: body.url,
    method: body.method,
    expected_status_codes: body.expected_status_codes,
    timeout_seconds: body.timeout_seconds,
    follow_redirects: body.follow_redirects,
    verify_ssl: body.verify_ssl,
    headers_json: body.headers_json,
    auth_config_json: body.auth_config_json,
  };
}
