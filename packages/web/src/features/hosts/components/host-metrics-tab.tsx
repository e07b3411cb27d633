import type { Host } from '@berth/contracts';

/** The host's metrics history. (Being built: issue 52.) */
export function HostMetricsTab({ host }: { host: Host }) {
  return <div data-testid="host-metrics" data-host-id={host.id} />;
}
