import {
  createUserRequestSchema,
  updateUserRequestSchema,
  USER_ROLES,
  type ManagedUser,
  type UserRole,
} from '@berth/contracts';
import { useQuery } from '@tanstack/react-query';
import { Copy } from 'lucide-react';
import { useState } from 'react';
import { toast } from 'sonner';
import { Button } from '@/components/ui/button';
import { Dialog } from '@/components/ui/dialog';
import { FormFooter } from '@/components/ui/form-footer';
import { Input } from '@/components/ui/input';
import { Select } from '@/components/ui/select';
import { errorText } from '@/lib/api-client';
import { parseTags } from '@/lib/parse-tags';
import { hostTagsQueryOptions, useCreateUser, useUpdateUser } from '../api/users-api';

export const ROLE_LABELS: Record<UserRole, string> = {
  admin: 'Admin',
  operator: 'Operator',
  viewer: 'Viewer',
};

const ROLE_HINTS: Record<UserRole, string> = {
  admin: 'Everything: settings, hosts, rules, channels and users.',
  operator: 'Reads, plus container and batch actions, updates and alert actions.',
  viewer: 'Reads only.',
};

interface Fields {
  username: string;
  display_name: string;
  email: string;
  role: UserRole;
  /** Comma-separated, as a host's tags are typed. */
  host_tags: string;
}

export const ADMINS_REACH_EVERY_HOST = 'Admins reach every host';

/** The host tags a request sends: none for an admin, who always reaches every host. */
const hostTagsOf = (fields: Fields) => (fields.role === 'admin' ? [] : parseTags(fields.host_tags));

/**
 * The hosts a user reaches: every host, or those with one of the tags. The tags are typed as
 * on a host (comma-separated); the tags hosts have now are offered to add with a click.
 */
function HostTagsField({ fields, set }: { fields: Fields; set: (next: Partial<Fields>) => void }) {
  const known = useQuery(hostTagsQueryOptions());
  if (fields.role === 'admin') {
    return (
      <div className="grid gap-1">
        <span className="text-slate-300">Host tags</span>
        <span className="text-xs text-slate-400" data-testid="admin-host-scope">
          {ADMINS_REACH_EVERY_HOST}.
        </span>
      </div>
    );
  }
  const chosen = parseTags(fields.host_tags);
  const offered = (known.data ?? []).filter((t) => !chosen.includes(t));
  return (
    <div className="grid gap-1">
      <label className="grid gap-1">
        <span className="text-slate-300">Host tags</span>
        <Input
          value={fields.host_tags}
          placeholder="staging, us-west-1"
          aria-label="Host tags"
          onChange={(e) => set({ host_tags: e.target.value })}
        />
      </label>
      <span className="text-xs text-slate-400">
        {chosen.length === 0
          ? 'Empty: every host. With tags, only hosts that have any of them.'
          : `Only hosts tagged ${chosen.join(' or ')}.`}
      </span>
      {offered.length > 0 && (
        <div className="flex flex-wrap items-center gap-1 text-xs text-slate-500">
          Add:
          {offered.map((t) => (
            <button
              key={t}
              type="button"
              className="rounded bg-slate-800 px-1.5 py-0.5 text-slate-300 hover:bg-slate-700"
              onClick={() => set({ host_tags: [...chosen, t].join(', ') })}
            >
              {t}
            </button>
          ))}
        </div>
      )}
    </div>
  );
}

/** Username (new users only), display name, email, role and host tags. */
function UserFields({
  fields,
  set,
  withUsername,
}: {
  fields: Fields;
  set: (next: Partial<Fields>) => void;
  withUsername: boolean;
}) {
  return (
    <>
      {withUsername && (
        <label className="grid gap-1">
          <span className="text-slate-300">Username</span>
          <Input
            value={fields.username}
            maxLength={100}
            autoFocus
            onChange={(e) => set({ username: e.target.value })}
          />
        </label>
      )}
      <label className="grid gap-1">
        <span className="text-slate-300">Display name</span>
        <Input
          value={fields.display_name}
          maxLength={100}
          onChange={(e) => set({ display_name: e.target.value })}
        />
      </label>
      <label className="grid gap-1">
        <span className="text-slate-300">Email</span>
        <Input
          type="email"
          value={fields.email}
          maxLength={254}
          onChange={(e) => set({ email: e.target.value })}
        />
      </label>
      <label className="grid gap-1">
        <span className="text-slate-300">Role</span>
        <Select
          size="lg"
          value={fields.role}
          aria-label="Role"
          onChange={(e) => set({ role: e.target.value as UserRole })}
        >
          {USER_ROLES.map((r) => (
            <option key={r} value={r}>
              {ROLE_LABELS[r]}
            </option>
          ))}
        </Select>
        <span className="text-xs text-slate-400">{ROLE_HINTS[fields.role]}</span>
      </label>
      <HostTagsField fields={fields} set={set} />
    </>
  );
}

/** "Add user": the form, then the one-time password, shown this once. */
export function AddUserDialog({ onClose }: { onClose: () => void }) {
  const create = useCreateUser();
  const [fields, setFields] = useState<Fields>({
    username: '',
    display_name: '',
    email: '',
    role: 'viewer',
    host_tags: '',
  });
  const [error, setError] = useState<string | null>(null);
  const [password, setPassword] = useState<{ username: string; password: string } | null>(null);
  if (password !== null) {
    return (
      <OneTimePasswordDialog
        title={`User "${password.username}" added`}
        password={password.password}
        onClose={onClose}
      />
    );
  }
  const submit = () => {
    const parsed = createUserRequestSchema.safeParse({
      username: fields.username,
      display_name: fields.display_name,
      email: fields.email,
      role: fields.role,
      host_tags: hostTagsOf(fields),
    });
    if (!parsed.success) {
      setError(parsed.error.issues[0]?.message ?? 'Invalid input');
      return;
    }
    setError(null);
    create.mutate(parsed.data, {
      onSuccess: (created) => {
        toast.success(`User "${created.user.username}" added`);
        setPassword({ username: created.user.username, password: created.password });
      },
      onError: (err) => setError(errorText(err)),
    });
  };
  return (
    <Dialog
      open
      onOpenChange={(o) => !o && onClose()}
      title="Add user"
      description="Berth makes a one-time password, shown once; the user changes it at first sign-in."
    >
      <form
        className="grid gap-3 text-sm"
        onSubmit={(e) => {
          e.preventDefault();
          submit();
        }}
      >
        <UserFields fields={fields} set={(n) => setFields({ ...fields, ...n })} withUsername />
        <FormFooter error={error} onCancel={onClose} submit="Add" pending={create.isPending} />
      </form>
    </Dialog>
  );
}

/** Display name, email, role and host tags of an existing user. */
export function EditUserDialog({ user, onClose }: { user: ManagedUser; onClose: () => void }) {
  const update = useUpdateUser();
  const [fields, setFields] = useState<Fields>({
    username: user.username,
    display_name: user.display_name ?? '',
    email: user.email ?? '',
    role: user.role,
    host_tags: user.host_tags.join(', '),
  });
  const [error, setError] = useState<string | null>(null);
  const submit = () => {
    const { display_name, email, role } = fields;
    const parsed = updateUserRequestSchema.safeParse({
      display_name,
      email,
      role,
      host_tags: hostTagsOf(fields),
    });
    if (!parsed.success) {
      setError(parsed.error.issues[0]?.message ?? 'Invalid input');
      return;
    }
    update.mutate(
      { id: user.id, body: parsed.data },
      {
        onSuccess: () => {
          toast.success(`User "${user.username}" saved`);
          onClose();
        },
        onError: (err) => setError(errorText(err)),
      },
    );
  };
  return (
    <Dialog open onOpenChange={(o) => !o && onClose()} title={`Edit ${user.username}`}>
      <form
        className="grid gap-3 text-sm"
        onSubmit={(e) => {
          e.preventDefault();
          submit();
        }}
      >
        <UserFields
          fields={fields}
          set={(n) => setFields({ ...fields, ...n })}
          withUsername={false}
        />
        <FormFooter error={error} onCancel={onClose} submit="Save" pending={update.isPending} />
      </form>
    </Dialog>
  );
}

/** A one-time password, once, with a copy button; closing it is the last chance to copy it. */
export function OneTimePasswordDialog({
  title,
  password,
  onClose,
}: {
  title: string;
  password: string;
  onClose: () => void;
}) {
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(password);
      toast.success('Password copied');
    } catch {
      // No clipboard outside a secure context (http:// on another machine): select it instead.
      toast.error('Copy failed: select the password and copy it');
    }
  };
  return (
    <Dialog open onOpenChange={(o) => !o && onClose()} title={title} size="lg">
      <div className="grid gap-3 text-sm">
        <p className="rounded-md border border-amber-500/40 bg-amber-500/10 px-3 py-2 text-amber-200">
          Copy this one-time password now. You won&apos;t be able to see it again; the user must
          change it at their next sign-in.
        </p>
        <div className="flex items-center gap-2">
          <Input
            readOnly
            value={password}
            aria-label="One-time password"
            className="font-mono text-xs"
            onFocus={(e) => e.target.select()}
          />
          <Button variant="secondary" aria-label="Copy password" onClick={() => void copy()}>
            <Copy className="h-4 w-4" /> Copy
          </Button>
        </div>
        <div className="flex justify-end">
          <Button onClick={onClose}>Done</Button>
        </div>
      </div>
    </Dialog>
  );
}
