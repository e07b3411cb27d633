import { type RegistryCredential } from '@berth/contracts';
import { useQuery } from '@tanstack/react-query';
import { Lock, Pencil, Plus, Trash2 } from 'lucide-react';
import { useState } from 'react';
import { toast } from 'sonner';
import { Button } from '@/components/ui/button';
import { Dialog } from '@/components/ui/dialog';
import { FormFooter } from '@/components/ui/form-footer';
import { Input } from '@/components/ui/input';
import { errorText } from '@/lib/api-client';
import {
  registryCredentialsQueryOptions,
  useCreateCredential,
  useDeleteCredential,
  useUpdateCredential,
} from '../api/updates-settings-api';
import { SettingsSection } from '../components/setting-row';

type CredentialDialog =
  | { mode: 'add' }
  | { mode: 'edit'; credential: RegistryCredential }
  | { mode: 'delete'; credential: RegistryCredential }
  | null;

/** Registry credentials with add, edit and delete dialogs. */
export function RegistryCredentials() {
  const list = useQuery(registryCredentialsQueryOptions());
  const [dialog, setDialog] = useState<CredentialDialog>(null);
  return (
    <SettingsSection title="Registry credentials">
      <p className="flex items-center gap-2 py-2 text-xs text-slate-400">
        <Lock className="h-3.5 w-3.5" aria-hidden /> Credentials are stored encrypted. Passwords are
        never shown again after saving.
      </p>
      <ul className="divide-y divide-slate-800" data-testid="registry-credentials">
        {(list.data ?? []).map((c) => (
          <li key={c.id} className="flex items-center gap-3 py-2 text-sm">
            <span className="font-mono text-slate-100">{c.registry_url}</span>
            <span className="text-slate-400">{c.username}</span>
            <span className="ml-auto flex gap-1">
              <Button
                size="icon"
                variant="ghost"
                aria-label={`Edit ${c.registry_url}`}
                onClick={() => setDialog({ mode: 'edit', credential: c })}
              >
                <Pencil className="h-4 w-4" />
              </Button>
              <Button
                size="icon"
                variant="ghost"
                aria-label={`Delete ${c.registry_url}`}
                onClick={() => setDialog({ mode: 'delete', credential: c })}
              >
                <Trash2 className="h-4 w-4" />
              </Button>
            </span>
          </li>
        ))}
        {list.data?.length === 0 && (
          <li className="py-2 text-sm text-slate-500">No registry credentials</li>
        )}
      </ul>
      <div className="py-3">
        <Button size="sm" variant="secondary" onClick={() => setDialog({ mode: 'add' })}>
          <Plus className="h-4 w-4" /> Add credential
        </Button>
      </div>
      {dialog?.mode === 'add' && <CredentialForm onClose={() => setDialog(null)} />}
      {dialog?.mode === 'edit' && (
        <CredentialForm credential={dialog.credential} onClose={() => setDialog(null)} />
      )}
      {dialog?.mode === 'delete' && (
        <DeleteCredential credential={dialog.credential} onClose={() => setDialog(null)} />
      )}
    </SettingsSection>
  );
}

function CredentialForm({
  credential,
  onClose,
}: {
  credential?: RegistryCredential;
  onClose: () => void;
}) {
  const create = useCreateCredential();
  const edit = useUpdateCredential();
  const [url, setUrl] = useState(credential?.registry_url ?? '');
  const [username, setUsername] = useState(credential?.username ?? '');
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string | null>(null);
  const editing = credential !== undefined;

  const submit = () => {
    if (editing) {
      const changedUser = username.trim() !== credential.username;
      if (!changedUser && password === '') {
        onClose();
        return;
      }
      if (username.trim() === '') {
        setError('Username is required');
        return;
      }
      edit.mutate(
        {
          id: credential.id,
          body: {
            ...(changedUser ? { username: username.trim() } : {}),
            ...(password === '' ? {} : { password }),
          },
        },
        {
          onSuccess: () => {
            toast.success('Credential updated');
            onClose();
          },
          onError: (err) => toast.error(`Failed to update credential: ${errorText(err)}`),
        },
      );
      return;
    }
    if (url.trim() === '' || username.trim() === '' || password === '') {
      setError('Registry URL, username and password are required');
      return;
    }
    create.mutate(
      { registry_url: url.trim(), username: username.trim(), password },
      {
        onSuccess: () => {
          toast.success('Credential added');
          onClose();
        },
        onError: (err) => toast.error(`Failed to create credential: ${errorText(err)}`),
      },
    );
  };

  return (
    <Dialog
      open
      onOpenChange={(o) => !o && onClose()}
      title={editing ? 'Edit registry credential' : 'Add registry credential'}
      description="Credentials are stored encrypted."
    >
      <form
        className="grid gap-3 text-sm"
        onSubmit={(e) => {
          e.preventDefault();
          submit();
        }}
      >
        <label className="grid gap-1">
          <span className="text-slate-300">Registry URL</span>
          <Input
            value={url}
            disabled={editing}
            placeholder="ghcr.io"
            onChange={(e) => setUrl(e.target.value)}
          />
        </label>
        <label className="grid gap-1">
          <span className="text-slate-300">Username</span>
          <Input value={username} onChange={(e) => setUsername(e.target.value)} />
        </label>
        <label className="grid gap-1">
          <span className="text-slate-300">Password</span>
          <Input
            type="password"
            value={password}
            autoComplete="new-password"
            placeholder={editing ? 'Leave blank to keep the current password' : ''}
            onChange={(e) => setPassword(e.target.value)}
          />
        </label>
        <FormFooter
          error={error}
          onCancel={onClose}
          submit="Save"
          pending={create.isPending || edit.isPending}
        />
      </form>
    </Dialog>
  );
}

function DeleteCredential({
  credential,
  onClose,
}: {
  credential: RegistryCredential;
  onClose: () => void;
}) {
  const del = useDeleteCredential();
  return (
    <Dialog open onOpenChange={(o) => !o && onClose()} title="Delete registry credential">
      <p className="text-sm">
        Delete the credentials for <span className="font-mono">{credential.registry_url}</span>?
        Checks and pulls from this registry will be anonymous.
      </p>
      <div className="mt-4 flex justify-end gap-2">
        <Button variant="secondary" onClick={onClose}>
          Cancel
        </Button>
        <Button
          variant="danger"
          disabled={del.isPending}
          onClick={() =>
            del.mutate(credential.id, {
              onSuccess: () => {
                toast.success('Credential deleted');
                onClose();
              },
              onError: (err) => toast.error(`Failed to delete credential: ${errorText(err)}`),
            })
          }
        >
          Delete
        </Button>
      </div>
    </Dialog>
  );
}
