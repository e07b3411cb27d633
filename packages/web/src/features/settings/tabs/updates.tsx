import {
  UPDATE_POLICY_CATEGORIES,
  writableSettingsShape,
  type RegistryCredential,
  type UpdatePolicyCategory,
} from '@berth/contracts';
import { useQuery } from '@tanstack/react-query';
import { Lock, Pencil, Plus, Trash2, X } from 'lucide-react';
import { useState } from 'react';
import { toast } from 'sonner';
import { Button } from '@/components/ui/button';
import { Dialog } from '@/components/ui/dialog';
import { Input } from '@/components/ui/input';
import { Switch } from '@/components/ui/switch';
import { errorText } from '@/lib/api-client';
import { useSettings, useUpdateSettings } from '../api/settings-api';
import {
  registryCredentialsQueryOptions,
  updatePoliciesQueryOptions,
  useAddPattern,
  useCheckAll,
  useCreateCredential,
  useDeleteCredential,
  useRemovePattern,
  useToggleCategory,
  useUpdateCredential,
} from '../api/updates-settings-api';
import { SettingRow, SettingsSection } from '../components/setting-row';

const CATEGORY_LABEL: Record<UpdatePolicyCategory, string> = {
  databases: 'Databases',
  proxies: 'Proxies',
  monitoring: 'Monitoring',
  critical: 'Critical infrastructure',
  custom: 'Custom patterns',
};

/** Settings → Container Updates (spec 3 §2). */
export default function UpdatesSettingsTab() {
  const settings = useSettings().data;
  const update = useUpdateSettings();
  const [time, setTime] = useState<string | null>(null);
  const checkAll = useCheckAll();
  if (settings === undefined) return <p className="text-sm text-slate-400">Loading…</p>;

  const saveTime = () => {
    if (time === null) return;
    const value = time.trim();
    setTime(null);
    if (value === settings.update_check_time) return;
    const ok = writableSettingsShape.update_check_time.safeParse(value);
    if (!ok.success) {
      toast.error('Invalid time format. Use HH:MM (24-hour format)');
      return;
    }
    update.mutate(
      { update_check_time: value },
      {
        onError: (err) =>
          toast.error('Failed to update update check time', { description: errorText(err) }),
      },
    );
  };

  return (
    <div className="grid gap-6" data-testid="updates-settings">
      <SettingsSection title="Update checks">
        <SettingRow
          label="Update check time"
          htmlFor="update-check-time"
          description="The daily update check runs at this time (24-hour, your time zone); auto-updates follow it."
        >
          <Input
            id="update-check-time"
            className="w-24 text-center tabular-nums"
            placeholder="HH:MM"
            value={time ?? settings.update_check_time}
            onChange={(e) => setTime(e.target.value)}
            onBlur={saveTime}
            onKeyDown={(e) => {
              if (e.key === 'Enter') e.currentTarget.blur();
              if (e.key === 'Escape') setTime(null);
            }}
          />
        </SettingRow>
        <SettingRow
          label="Skip compose containers"
          description="Containers managed by Docker Compose are left out of the daily check and auto-update."
        >
          <Switch
            label="Skip compose containers"
            checked={settings.skip_compose_containers}
            onCheckedChange={(on) =>
              update.mutate(
                { skip_compose_containers: on },
                {
                  onError: (err) =>
                    toast.error('Failed to update skip compose containers', {
                      description: errorText(err),
                    }),
                },
              )
            }
          >
            <span className="sr-only">Skip compose containers</span>
          </Switch>
        </SettingRow>
        <SettingRow label="Check all now" description="Checks every container's image now.">
          <Button
            size="sm"
            variant="secondary"
            disabled={checkAll.isPending}
            onClick={() =>
              checkAll.mutate(undefined, {
                onSuccess: (r) => {
                  const text = `Checked ${r.checked}/${r.total} containers, ${r.updates_found} update(s) found`;
                  if (r.errors.length > 0)
                    toast.warning('Update check completed with errors', {
                      description: `${text}. ${r.errors.length} error(s): ${r.errors.slice(0, 3).join('; ')}`,
                    });
                  else toast.success('Update check complete', { description: text });
                },
                onError: (err) =>
                  toast.error('Failed to check for updates', { description: errorText(err) }),
              })
            }
          >
            {checkAll.isPending ? 'Checking…' : 'Check all now'}
          </Button>
        </SettingRow>
      </SettingsSection>
      <PoliciesEditor />
      <RegistryCredentials />
    </div>
  );
}

function PoliciesEditor() {
  const policies = useQuery(updatePoliciesQueryOptions());
  const toggle = useToggleCategory();
  const add = useAddPattern();
  const remove = useRemovePattern();
  const [pattern, setPattern] = useState('');

  if (policies.isError)
    return (
      <SettingsSection title="Update validation policies">
        <p className="py-3 text-sm text-red-300">
          Failed to load update policies. Please try again.
        </p>
      </SettingsSection>
    );
  const cats = policies.data?.categories;

  const addPattern = () => {
    const value = pattern.trim();
    if (value === '') {
      toast.error('Please enter a pattern');
      return;
    }
    add.mutate(value, {
      onSuccess: () => setPattern(''),
      onError: (err) =>
        toast.error(
          errorText(err).includes('already exists')
            ? `Pattern '${value}' already exists`
            : 'Failed to add custom pattern',
        ),
    });
  };

  return (
    <SettingsSection title="Update validation policies">
      <p className="py-2 text-xs text-slate-400">
        Containers whose name or image matches an enabled pattern ask for confirmation before an
        update and are never auto-updated. A container's own policy (its Updates tab) comes first.
      </p>
      {UPDATE_POLICY_CATEGORIES.filter((c) => c !== 'custom').map((category) => {
        const items = cats?.[category] ?? [];
        const enabled = items.length > 0 && items.every((i) => i.enabled);
        return (
          <SettingRow
            key={category}
            label={CATEGORY_LABEL[category]}
            description={
              <span data-testid={`policy-${category}`}>
                {items.map((i) => i.pattern).join(', ')}
              </span>
            }
          >
            <Switch
              label={CATEGORY_LABEL[category]}
              checked={enabled}
              onCheckedChange={(on) =>
                toggle.mutate(
                  { category, enabled: on },
                  { onError: () => toast.error('Failed to update category') },
                )
              }
            >
              <span className="sr-only">{CATEGORY_LABEL[category]}</span>
            </Switch>
          </SettingRow>
        );
      })}
      <div className="py-4">
        <p className="text-sm font-medium text-slate-100">{CATEGORY_LABEL.custom}</p>
        <ul className="my-2 flex flex-wrap gap-2" data-testid="custom-patterns">
          {(cats?.custom ?? []).map((p) => (
            <li
              key={p.id}
              className="inline-flex items-center gap-1 rounded bg-slate-800 px-2 py-0.5 text-xs"
            >
              {p.pattern}
              <button
                type="button"
                aria-label={`Remove ${p.pattern}`}
                onClick={() =>
                  remove.mutate(p.id, {
                    onError: () => toast.error('Failed to remove custom pattern'),
                  })
                }
              >
                <X className="h-3 w-3" />
              </button>
            </li>
          ))}
        </ul>
        <div className="flex gap-2">
          <Input
            aria-label="Custom pattern"
            placeholder="e.g. my-app"
            value={pattern}
            className="max-w-xs"
            onChange={(e) => setPattern(e.target.value)}
            onKeyDown={(e) => e.key === 'Enter' && addPattern()}
          />
          <Button size="sm" onClick={addPattern} disabled={add.isPending}>
            <Plus className="h-4 w-4" /> Add
          </Button>
        </div>
      </div>
    </SettingsSection>
  );
}

type CredentialDialog =
  | { mode: 'add' }
  | { mode: 'edit'; credential: RegistryCredential }
  | { mode: 'delete'; credential: RegistryCredential }
  | null;

function RegistryCredentials() {
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
        {error !== null && <p className="text-red-300">{error}</p>}
        <div className="flex justify-end gap-2">
          <Button variant="secondary" onClick={onClose}>
            Cancel
          </Button>
          <Button type="submit" disabled={create.isPending || edit.isPending}>
            Save
          </Button>
        </div>
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
