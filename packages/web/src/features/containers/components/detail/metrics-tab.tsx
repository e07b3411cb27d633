import type { Container } from '@berth/contracts';

/** The container's metrics history. (Being built: issue 52.) */
export function MetricsTab({ container }: { container: Container }) {
  return <div data-testid="container-metrics" data-container-id={container.id} />;
}
