import type { ManagedUser } from '@berth/contracts';
import { useQueryClient } from '@tanstack/react-query';
import { toast } from 'sonner';
import { ConfirmDialog } from '@/components/confirm-dialog';
import { errorText } from '@/lib/api-client';
import { useResetUserTwoFactor } from '../api/two-factor-api';
import { usersQueryOptions } from '../api/users-api';

/** Settings → Users: an admin's reset of a user's two-factor, for a lost device. */
export function ResetTwoFactorDialog({
  user,
  onClose,
}: {
  user: ManagedUser;
  onClose: () => void;
}) {
  const reset = useResetUserTwoFactor();
  const qc = useQueryClient();
  return (
    <ConfirmDialog
      open
      title="Reset two-factor sign-in"
      description={`Turn off two-factor sign-in for "${user.username}" and drop their recovery codes? They sign in with their password alone, and set it up again (at once, if their role requires it).`}
      confirmLabel="Reset two-factor"
      danger
      busy={reset.isPending}
      onCancel={onClose}
      onConfirm={() =>
        reset.mutate(user.id, {
          onSuccess: () => {
            toast.success(`Two-factor sign-in reset for "${user.username}"`);
            // The users list shows who signs in with a second factor.
            void qc.invalidateQueries({ queryKey: usersQueryOptions().queryKey });
            onClose();
          },
          onError: (err) => toast.error(`Failed to reset two-factor: ${errorText(err)}`),
        })
      }
    />
  );
}
