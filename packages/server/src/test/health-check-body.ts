import type { HealthCheckConfigInput } from '@berth/contracts';

/**
 * A check of the rig's httpd image (/www/health on 8080) that turns unhealthy at the first
 * failure and restarts the container, with the shortest interval and delay the API allows.
 */
export const restartingHealthCheck = (
  over: Partial<HealthCheckConfigInput> = {},
): HealthCheckConfigInput => ({
  enabled: true,
  url: 'http://{container_ip}:8080/health',
  timeout_seconds: 5,
  check_interval_seconds: 10,
  failure_threshold: 1,
  success_threshold: 1,
  auto_restart_on_failure: true,
  max_restart_attempts: 1,
  restart_retry_delay_seconds: 30,
  ...over,
});
