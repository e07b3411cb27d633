import type { Container } from '@berth/contracts';
import { InfoRow } from '@/components/detail-section';
import { Dialog } from '@/components/ui/dialog';
import { formatBytes, formatPercent, formatRate } from '@/lib/format';

/** What a click on a container in a host card shows. */
export function ContainerInfoDialog({
  container,
  onClose,
}: {
  container: Container;
  onClose: () => void;
}) {
  return (
    <Dialog open onOpenChange={(open) => !open && onClose()} title={container.name} size="lg">
      <dl>
        <InfoRow label="Host">{container.host_name}</InfoRow>
        <InfoRow label="Image">{container.image}</InfoRow>
        <InfoRow label="State">{container.state}</InfoRow>
        <InfoRow label="Status">{container.status}</InfoRow>
        <InfoRow label="ID">{container.short_id}</InfoRow>
        <InfoRow label="CPU">{formatPercent(container.cpu_percent)}</InfoRow>
        <InfoRow label="Memory">
          {formatBytes(container.memory_usage)} ({formatPercent(container.memory_percent)})
        </InfoRow>
        <InfoRow label="Network">{formatRate(container.net_bytes_per_sec)}</InfoRow>
        <InfoRow label="Ports">
          {container.ports.length > 0 ? container.ports.join(', ') : '—'}
        </InfoRow>
        <InfoRow label="Restart policy">{container.restart_policy ?? '—'}</InfoRow>
        <InfoRow label="Tags">
          {container.tags.length > 0 ? container.tags.join(', ') : '—'}
        </InfoRow>
      </dl>
    </Dialog>
  );
}
