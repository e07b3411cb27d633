import type { Container } from '@berth/contracts';
import { LogViewer } from '@/components/log-viewer';

/** The logs of one container filling a box of the given height (detail dialog, drawer). */
export function ContainerLogsPanel({
  container: c,
  heightClass,
}: {
  container: Container;
  heightClass: string;
}) {
  return (
    <div className={`flex flex-col ${heightClass}`}>
      <LogViewer
        sources={[{ hostId: c.host_id, containerId: c.id, name: c.name }]}
        showNames={false}
      />
    </div>
  );
}
