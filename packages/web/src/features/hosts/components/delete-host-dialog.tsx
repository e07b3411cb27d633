import type { Host } from '@berth/contracts';
import { toast } from 'sonner';
import { Button } from '@/components/ui/button';
import { Dialog } from '@/components/ui/dialog';
import { errorText } from '@/lib/api-client';
import { useDeleteHost } from '../api/hosts-api';

/** Delete confirmation with its impact (spec 1 §2). */
export function DeleteHostDialog({ host, onClose }: { host: Host; onClose: () => void }) {
  const remove = useDeleteHost();
  const confirm = async () => {
    try {
      await remove.mutateAsync(host.id);
      toast.success('Host deleted successfully');
    } catch (err) {
      toast.error(errorText(err, 'Failed to delete host'));
    }
    onClose();
  };
  return (
    <Dialog
      open
      onOpenChange={(open) => !open && onClose()}
      title="Delete Host"
      description={`Delete "${host.name}"? Its ${host.alerts.open} open alert(s) will be resolved and its container settings deleted. Its event history is kept.`}
    >
      <div className="flex justify-end gap-2">
        <Button variant="secondary" onClick={onClose}>
          Cancel
        </Button>
        <Button variant="danger" onClick={() => void confirm()} disabled={remove.isPending}>
          Delete
        </Button>
      </div>
    </Dialog>
  );
}
