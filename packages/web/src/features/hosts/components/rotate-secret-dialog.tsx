import type { Host } from '@berth/contracts';
import { toast } from 'sonner';
import { ConfirmDialog } from '@/components/confirm-dialog';
import { errorText } from '@/lib/api-client';
import { useRotateAgentSecret } from '../api/hosts-api';

/** Confirms, then gives the host's agent a new secret; the old one stops working. */
export function RotateSecretDialog({ host, onClose }: { host: Host; onClose: () => void }) {
  const rotate = useRotateAgentSecret();
  const confirm = async () => {
    try {
      await rotate.mutateAsync(host.id);
      toast.success(`Secret of "${host.name}" rotated`);
      onClose();
    } catch (err) {
      toast.error(errorText(err, 'Failed to rotate the secret'));
    }
  };
  return (
    <ConfirmDialog
      open
      title="Rotate secret"
      description={`Give the agent of "${host.name}" a new secret? It stays connected and keeps the new one in its volume; the old secret stops working.`}
      confirmLabel="Rotate secret"
      busy={rotate.isPending}
      onConfirm={() => void confirm()}
      onCancel={onClose}
    />
  );
}
