import type { Container } from '@berth/contracts';
import { CONTAINER_CHARTS, HistoryPanel } from '@/components/history-chart';

/**
 * The container's metrics history. Its series is kept under its name, so a recreated container
 * (an update) shows one history, and the markers are its name's events.
 */
export function MetricsTab({ container }: { container: Container }) {
  return (
    <div data-testid="container-metrics" data-container-id={container.id}>
      <HistoryPanel
        target={{ hostId: container.host_id, containerId: container.id }}
        markerTarget={{ hostId: container.host_id, containerName: container.name }}
        charts={CONTAINER_CHARTS}
      />
    </div>
  );
}
