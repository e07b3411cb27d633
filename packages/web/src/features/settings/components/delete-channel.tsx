import type { NotificationChannel } from '@berth/contracts';
import { useQuery } from '@tanstack/react-query';
import { toast } from 'sonner';
import { ConfirmDialog } from '@/components/confirm-dialog';
import { errorText } from '@/lib/api-client';
import { channelDependentsQueryOptions, useChannelMutations } from '../api/notifications-api';

/** Deleting a channel: the alert rules that notify it are named first. */
export function DeleteChannel({
  channel,
  onClose,
}: {
  channel: NotificationChannel;
  onClose: () => void;
}) {
  const { remove } = useChannelMutations();
  const deps = useQuery(channelDependentsQueryOptions(channel.id));
  return (
    <ConfirmDialog
      open
      danger
      title="Delete notification channel"
      description={`Delete the channel '${channel.name}'? This cannot be undone.`}
      confirmLabel="Delete"
      busy={remove.isPending}
      onCancel={onClose}
      onConfirm={() =>
        remove.mutate(channel.id, {
          onSuccess: () => {
            toast.success('Channel deleted successfully');
            onClose();
          },
          onError: (err) => toast.error(`Failed to delete channel: ${errorText(err)}`),
        })
      }
    >
      <div className="mb-4 text-sm" data-testid="channel-dependents">
        {deps.data === undefined ? (
          <p className="text-slate-500">Checking which alert rules use it…</p>
        ) : deps.data.alert_count === 0 ? (
          <p className="text-slate-400">No alert rules use this channel.</p>
        ) : (
          <>
            <p className="text-amber-300">
              {deps.data.alert_count} alert rule(s) notify this channel and will no longer send to
              it:
            </p>
            <ul className="mt-1 list-disc pl-5 text-slate-300">
              {deps.data.alert_names.map((n) => (
                <li key={n}>{n}</li>
              ))}
            </ul>
          </>
        )}
      </div>
    </ConfirmDialog>
  );
}
