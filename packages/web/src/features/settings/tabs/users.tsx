import type { ManagedUser } from '@berth/contracts';
import { useQuery } from '@tanstack/react-query';
import { MoreHorizontal, Plus, Users } from 'lucide-react';
import { useState } from 'react';
import { toast } from 'sonner';
import { ConfirmDialog } from '@/components/confirm-dialog';
import { TagChips } from '@/components/host-status';
import { Button } from '@/components/ui/button';
import { ActionMenu, DropdownMenuItem, DropdownMenuSeparator } from '@/components/ui/dropdown-menu';
import { errorText } from '@/lib/api-client';
import {
  useDeleteUser,
  useEndUserSessions,
  useResetUserPassword,
  useUpdateUser,
  usersQueryOptions,
} from '../api/users-api';
import { AllSessionsSection } from '../components/all-sessions-section';
import { ResetTwoFactorDialog } from '../components/reset-two-factor-dialog';
import { SettingsSection } from '../components/setting-row';
import {
  ADMINS_REACH_EVERY_HOST,
  AddUserDialog,
  EditUserDialog,
  OneTimePasswordDialog,
  ROLE_LABELS,
} from './users-dialogs';

const dateOf = (iso: string) =>
  new Date(iso).toLocaleDateString(undefined, { dateStyle: 'medium' });

type Open =
  | { kind: 'add' }
  | { kind: 'edit' | 'delete' | 'reset' | 'reset-two-factor'; user: ManagedUser }
  | { kind: 'password'; user: ManagedUser; password: string };

/** Settings → Users (admins only): the users, then everyone's sessions. */
export default function UsersSettingsTab() {
  return (
    <div className="space-y-6">
      <UsersSection />
      <AllSessionsSection />
    </div>
  );
}

/** Who may sign in to Berth, and what each may do. */
function UsersSection() {
  const list = useQuery(usersQueryOptions());
  const [open, setOpen] = useState<Open | null>(null);
  const close = () => setOpen(null);
  return (
    <SettingsSection title="Users">
      <p className="flex items-start gap-2 py-2 text-xs text-slate-400">
        <Users className="mt-0.5 h-3.5 w-3.5 shrink-0" aria-hidden />
        <span>
          Admins can do everything; operators can act on containers, batches, updates and alerts;
          viewers can only look. Operators and viewers can be limited to hosts with given tags;
          admins reach every host. The last enabled admin cannot be demoted, disabled or deleted.
        </span>
      </p>
      {list.isError ? (
        <p className="py-2 text-sm text-red-300">Failed to load users: {errorText(list.error)}</p>
      ) : list.data === undefined ? (
        <p className="py-2 text-sm text-slate-400">Loading…</p>
      ) : (
        <UsersTable users={list.data} onOpen={setOpen} />
      )}
      <div className="py-3">
        <Button size="sm" variant="secondary" onClick={() => setOpen({ kind: 'add' })}>
          <Plus className="h-4 w-4" /> Add user
        </Button>
      </div>
      {open?.kind === 'add' && <AddUserDialog onClose={close} />}
      {open?.kind === 'edit' && <EditUserDialog user={open.user} onClose={close} />}
      {open?.kind === 'delete' && <DeleteDialog user={open.user} onClose={close} />}
      {open?.kind === 'reset-two-factor' && (
        <ResetTwoFactorDialog user={open.user} onClose={close} />
      )}
      {open?.kind === 'reset' && (
        <ResetDialog
          user={open.user}
          onClose={close}
          onReset={(password) => setOpen({ kind: 'password', user: open.user, password })}
        />
      )}
      {open?.kind === 'password' && (
        <OneTimePasswordDialog
          title={`New password for "${open.user.username}"`}
          password={open.password}
          onClose={close}
        />
      )}
    </SettingsSection>
  );
}

function UsersTable({ users, onOpen }: { users: ManagedUser[]; onOpen: (open: Open) => void }) {
  return (
    <div className="overflow-x-auto">
      <table className="w-full text-left text-sm" data-testid="users">
        <thead className="text-xs text-slate-500 uppercase">
          <tr>
            <th className="py-1 pr-3 font-medium">Username</th>
            <th className="py-1 pr-3 font-medium">Display name</th>
            <th className="py-1 pr-3 font-medium">Email</th>
            <th className="py-1 pr-3 font-medium">Role</th>
            <th className="py-1 pr-3 font-medium">Hosts</th>
            <th className="py-1 pr-3 font-medium">Sign-in</th>
            <th className="py-1 pr-3 font-medium">Status</th>
            <th className="py-1 pr-3 font-medium">Created</th>
            <th className="py-1 font-medium">
              <span className="sr-only">Actions</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {users.map((u) => (
            <tr key={u.id} className="border-t border-slate-800" data-testid="user-row">
              <td className="py-2 pr-3 text-slate-100">{u.username}</td>
              <td className="py-2 pr-3 text-slate-300">{u.display_name ?? '—'}</td>
              <td className="py-2 pr-3 text-slate-300">{u.email ?? '—'}</td>
              <td className="py-2 pr-3 text-slate-300">{ROLE_LABELS[u.role]}</td>
              <td className="py-2 pr-3 text-slate-300" data-testid="user-hosts">
                <HostScope user={u} />
              </td>
              <td className="py-2 pr-3" data-testid="user-sign-in">
                <SignIn user={u} />
              </td>
              <td className="py-2 pr-3">
                <Status user={u} />
              </td>
              <td className="py-2 pr-3 text-slate-400">{dateOf(u.created_at)}</td>
              <td className="py-2 text-right">
                <RowMenu user={u} onOpen={onOpen} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** "All hosts", or the tags the user is limited to. */
function HostScope({ user }: { user: ManagedUser }) {
  if (user.role === 'admin') {
    return <span title={ADMINS_REACH_EVERY_HOST}>All hosts</span>;
  }
  if (user.host_tags.length === 0) return <span>All hosts</span>;
  return (
    <span aria-label={`Hosts tagged ${user.host_tags.join(' or ')}`}>
      <TagChips tags={user.host_tags} max={user.host_tags.length} />
    </span>
  );
}

/**
 * How the user signs in: a second factor and a linked sign-on account as badges, else a
 * password alone (a user single sign-on made has no password anyone knows).
 */
function SignIn({ user }: { user: ManagedUser }) {
  if (!user.two_factor && !user.sso_linked) return <span className="text-slate-400">Password</span>;
  return (
    <span className="flex flex-wrap gap-1">
      {user.two_factor && (
        <span className="rounded bg-emerald-500/15 px-1.5 text-xs leading-5 text-emerald-300">
          Two-factor
        </span>
      )}
      {user.sso_linked && (
        <span className="rounded bg-sky-500/15 px-1.5 text-xs leading-5 text-sky-300">
          Single sign-on
        </span>
      )}
    </span>
  );
}

function Status({ user }: { user: ManagedUser }) {
  if (user.disabled) return <span className="text-red-300">Disabled</span>;
  if (user.is_first_login) return <span className="text-amber-200">Password change pending</span>;
  return <span className="text-emerald-300">Active</span>;
}

function RowMenu({ user, onOpen }: { user: ManagedUser; onOpen: (open: Open) => void }) {
  const update = useUpdateUser();
  const endSessions = useEndUserSessions();
  const toggle = () =>
    update.mutate(
      { id: user.id, body: { disabled: !user.disabled } },
      {
        onSuccess: () =>
          toast.success(`User "${user.username}" ${user.disabled ? 'enabled' : 'disabled'}`),
        onError: (err) => toast.error(errorText(err)),
      },
    );
  const end = () =>
    endSessions.mutate(user.id, {
      onSuccess: () => toast.success(`Signed "${user.username}" out everywhere`),
      onError: (err) => toast.error(errorText(err)),
    });
  return (
    <ActionMenu
      label={`Actions for ${user.username}`}
      icon={<MoreHorizontal className="h-4 w-4" />}
    >
      <DropdownMenuItem onSelect={() => onOpen({ kind: 'edit', user })}>Edit…</DropdownMenuItem>
      <DropdownMenuItem onSelect={() => onOpen({ kind: 'reset', user })}>
        Reset password…
      </DropdownMenuItem>
      <DropdownMenuItem onSelect={() => onOpen({ kind: 'reset-two-factor', user })}>
        Reset two-factor…
      </DropdownMenuItem>
      <DropdownMenuItem onSelect={end}>End sessions</DropdownMenuItem>
      <DropdownMenuItem onSelect={toggle}>{user.disabled ? 'Enable' : 'Disable'}</DropdownMenuItem>
      <DropdownMenuSeparator />
      <DropdownMenuItem onSelect={() => onOpen({ kind: 'delete', user })}>Delete…</DropdownMenuItem>
    </ActionMenu>
  );
}

function DeleteDialog({ user, onClose }: { user: ManagedUser; onClose: () => void }) {
  const remove = useDeleteUser();
  return (
    <ConfirmDialog
      open
      title="Delete user"
      description={`Delete "${user.username}"? Their sessions end and their API keys stop working. This cannot be undone.`}
      confirmLabel="Delete"
      danger
      busy={remove.isPending}
      onCancel={onClose}
      onConfirm={() =>
        remove.mutate(user.id, {
          onSuccess: () => {
            toast.success(`User "${user.username}" deleted`);
            onClose();
          },
          onError: (err) => toast.error(`Failed to delete user: ${errorText(err)}`),
        })
      }
    />
  );
}

function ResetDialog({
  user,
  onClose,
  onReset,
}: {
  user: ManagedUser;
  onClose: () => void;
  onReset: (password: string) => void;
}) {
  const reset = useResetUserPassword();
  return (
    <ConfirmDialog
      open
      title="Reset password"
      description={`Give "${user.username}" a new one-time password? Their sessions end now, and they must choose a new password at their next sign-in.`}
      confirmLabel="Reset password"
      busy={reset.isPending}
      onCancel={onClose}
      onConfirm={() =>
        reset.mutate(user.id, {
          onSuccess: ({ password }) => onReset(password),
          onError: (err) => toast.error(`Failed to reset the password: ${errorText(err)}`),
        })
      }
    />
  );
}
