import type { Container } from '@berth/contracts';
import { Dialog } from '@/components/ui/dialog';
import { formatBytes, formatPercent, formatRate } from '@/lib/format';

const Field = ({ label, children }: { label: string; children: React.ReactNode }) => (
  <div className="grid grid-cols-[8rem_1fr] gap-2 py-1 text-sm">
    <dt className="text-slate-400">{label}</dt>
    <dd className="min-w-0 break-words text-slate-100">{children}</dd>
  </div>
);

/** What a click on a container in a host card shows. */
export function ContainerInfoDialog({
  container,
  onClose,
}: {
  container: Container;
  onClose: () => void;
}) {
  return (
    <Dialog
      open
      onOpenChange={(open) => !open && onClose()}
      title={container.name}
      className="max-w-lg"
    >
      <dl>
        <Field label="Host">{container.host_name}</Field>
        <Field label="Image">{container.image}</Field>
        <Field label="State">{container.state}</Field>
        <Field label="Status">{container.status}</Field>
        <Field label="ID">{container.short_id}</Field>
        <Field label="CPU">{formatPercent(container.cpu_percent)}</Field>
        <Field label="Memory">
          {formatBytes(container.memory_usage)} ({formatPercent(container.memory_percent)})
        </Field>
        <Field label="Network">{formatRate(container.net_bytes_per_sec)}</Field>
        <Field label="Ports">{container.ports.length > 0 ? container.ports.join(', ') : '—'}</Field>
        <Field label="Restart policy">{container.restart_policy ?? '—'}</Field>
        <Field label="Tags">{container.tags.length > 0 ? container.tags.join(', ') : '—'}</Field>
      </dl>
    </Dialog>
  );
}
