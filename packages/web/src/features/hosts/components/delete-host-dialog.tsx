import type { Host } from '@berth/contracts';
import { useQuery } from '@tanstack/react-query';
import { toast } from 'sonner';
import { Button } from '@/components/ui/button';
import { Dialog } from '@/components/ui/dialog';
import { errorText } from '@/lib/api-client';
import { openAlertsQueryOptions } from '@/lib/alerts';
import { useDeleteHost } from '../api/hosts-api';

/** Delete confirmation with its impact. */
export function DeleteHostDialog({ host, onClose }: { host: Host; onClose: () => void }) {
  const remove = useDeleteHost();
  // The impact is counted in the browser from the open-alerts list.
  const openAlerts =
    useQuery(openAlertsQueryOptions()).data?.alerts.filter((a) => a.host_id === host.id).length ??
    host.alerts.open;
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
      description={`Delete "${host.name}"? Its ${openAlerts} open alert(s) will be resolved and its container settings deleted. Its event history is kept.`}
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
