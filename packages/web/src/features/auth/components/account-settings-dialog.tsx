import type { User } from '@berth/contracts';
import { useState, type SyntheticEvent } from 'react';
import { toast } from 'sonner';
import { Button } from '@/components/ui/button';
import { Dialog } from '@/components/ui/dialog';
import { FormError } from '@/components/ui/form-error';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { ApiError } from '@/lib/api-client';
import { useUpdateProfile } from '../api/auth-api';
import { ChangePasswordDialog } from './change-password-dialog';

/** Profile errors by cause. */
function profileErrorText(err: unknown): string {
  if (err instanceof ApiError && err.status === 400) return err.message || 'Username already taken';
  return 'Failed to update profile. Please try again.';
}

export function AccountSettingsDialog({
  user,
  open,
  onOpenChange,
}: {
  user: User;
  open: boolean;
  onOpenChange: (open: boolean) => void;
}) {
  const [username, setUsername] = useState(user.username);
  const [displayName, setDisplayName] = useState(user.display_name ?? '');
  const [error, setError] = useState<string | null>(null);
  const [changingPassword, setChangingPassword] = useState(false);
  const update = useUpdateProfile();

  const submit = async (e: SyntheticEvent) => {
    e.preventDefault();
    if (username.trim() === '') {
      setError('Username is required');
      return;
    }
    try {
      await update.mutateAsync({
        username: username.trim(),
        display_name: displayName.trim() === '' ? null : displayName.trim(),
      });
      toast.success('Profile updated successfully');
      onOpenChange(false);
    } catch (err) {
      setError(profileErrorText(err));
    }
  };

  return (
    <>
      <Dialog
        open={open}
        onOpenChange={onOpenChange}
        title="Account Settings"
        description="Your name as Berth shows it, and your password."
      >
        <form onSubmit={(e) => void submit(e)} className="space-y-4" noValidate>
          <div>
            <Label htmlFor="account-display-name">Display Name</Label>
            <Input
              id="account-display-name"
              value={displayName}
              placeholder="Optional"
              onChange={(e) => {
                setDisplayName(e.target.value);
                setError(null);
              }}
            />
          </div>
          <div>
            <Label htmlFor="account-username">Username</Label>
            <Input
              id="account-username"
              value={username}
              autoComplete="username"
              onChange={(e) => {
                setUsername(e.target.value);
                setError(null);
              }}
            />
          </div>
          <FormError message={error} />
          <div className="flex items-center justify-between gap-2">
            <Button variant="secondary" onClick={() => setChangingPassword(true)}>
              Change Password
            </Button>
            <Button type="submit" disabled={update.isPending}>
              Save
            </Button>
          </div>
        </form>
      </Dialog>
      <ChangePasswordDialog open={changingPassword} onOpenChange={setChangingPassword} />
    </>
  );
}
