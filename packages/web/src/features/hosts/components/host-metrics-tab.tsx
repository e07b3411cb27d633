import type { Host } from '@berth/contracts';
import { HistoryPanel, HOST_CHARTS } from '@/components/history-chart';

/** The host's metrics history: CPU, memory, disk and its containers' network traffic. */
export function HostMetricsTab({ host }: { host: Host }) {
  return (
    <div data-testid="host-metrics" data-host-id={host.id}>
      <HistoryPanel
        target={{ hostId: host.id, containerId: null }}
        markerTarget={{ hostId: host.id, containerName: null }}
        charts={HOST_CHARTS}
      />
    </div>
  );
}
