import { MIN_PASSWORD_LENGTH } from '@berth/contracts';
import { useState, type SyntheticEvent } from 'react';
import { toast } from 'sonner';
import { Button } from '@/components/ui/button';
import { Dialog } from '@/components/ui/dialog';
import { FormError } from '@/components/ui/form-error';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { ApiError, NetworkError } from '@/lib/api-client';
import { useChangePassword } from '../api/auth-api';
import { pendingPassword } from '../pending-password';

/** The client-side password rules, checked in order; the first broken one is shown. */
export function passwordProblem(current: string, next: string, confirm: string): string | null {
  if (current === '' || next === '' || confirm === '') return 'Please fill in all fields';
  if (next.length < MIN_PASSWORD_LENGTH)
    return `New password must be at least ${MIN_PASSWORD_LENGTH} characters`;
  if (next === current) return 'New password must be different from current password';
  if (next !== confirm) return 'New passwords do not match';
  return null;
}

/** Password change errors by cause. */
function changeErrorText(err: unknown): string {
  if (err instanceof NetworkError)
    return 'Connection error. Please check if the backend is running.';
  if (err instanceof ApiError && err.status === 401) return 'Current password is incorrect';
  if (err instanceof ApiError && err.status === 400) return err.message || 'Invalid password';
  return 'Failed to change password. Please try again.';
}

interface Props {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** First login: the dialog cannot be closed until the password is changed. */
  forced?: boolean;
}

export function ChangePasswordDialog({ open, onOpenChange, forced = false }: Props) {
  const [current, setCurrent] = useState(() => (forced ? pendingPassword.get() : ''));
  const [next, setNext] = useState('');
  const [confirm, setConfirm] = useState('');
  const [error, setError] = useState<string | null>(null);
  const change = useChangePassword();

  const submit = async (e: SyntheticEvent) => {
    e.preventDefault();
    const problem = passwordProblem(current, next, confirm);
    if (problem !== null) {
      setError(problem);
      return;
    }
    try {
      await change.mutateAsync({ current_password: current, new_password: next });
      pendingPassword.clear();
      toast.success('Password changed successfully');
      setCurrent('');
      setNext('');
      setConfirm('');
      onOpenChange(false);
    } catch (err) {
      setError(changeErrorText(err));
    }
  };

  const field = (
    id: string,
    label: string,
    value: string,
    set: (v: string) => void,
    autoComplete: string,
  ) => (
    <div>
      <Label htmlFor={id}>{label}</Label>
      <Input
        id={id}
        type="password"
        autoComplete={autoComplete}
        value={value}
        onChange={(e) => {
          set(e.target.value);
          setError(null);
        }}
      />
    </div>
  );

  return (
    <Dialog
      open={open}
      onOpenChange={onOpenChange}
      forced={forced}
      title="Change Password"
      description={
        forced
          ? 'For security, please change the initial password before you continue.'
          : 'Choose a new password of at least 8 characters.'
      }
    >
      <form onSubmit={(e) => void submit(e)} className="space-y-4" noValidate>
        {field('current-password', 'Current Password', current, setCurrent, 'current-password')}
        {field('new-password', 'New Password', next, setNext, 'new-password')}
        {field('confirm-password', 'Confirm New Password', confirm, setConfirm, 'new-password')}
        <FormError message={error} />
        <div className="flex justify-end gap-2">
          {!forced && (
            <Button variant="secondary" onClick={() => onOpenChange(false)}>
              Cancel
            </Button>
          )}
          <Button type="submit" disabled={change.isPending}>
            Change Password
          </Button>
        </div>
      </form>
    </Dialog>
  );
}
