import {
  API_KEY_SCOPES,
  createApiKeyRequestSchema,
  type ApiKeyScope,
  type CreatedApiKey,
} from '@berth/contracts';
import { Copy } from 'lucide-react';
import { useState } from 'react';
import { toast } from 'sonner';
import { Button } from '@/components/ui/button';
import { Dialog } from '@/components/ui/dialog';
import { FormFooter } from '@/components/ui/form-footer';
import { Input } from '@/components/ui/input';
import { Select } from '@/components/ui/select';
import { errorText } from '@/lib/api-client';
import { useCreateApiKey } from '../api/api-keys-api';

export const SCOPE_LABELS: Record<ApiKeyScope, string> = {
  read: 'Read',
  operate: 'Operate',
  admin: 'Admin',
};

const SCOPE_HINTS: Record<ApiKeyScope, string> = {
  read: 'Lists and reads: hosts, containers, logs, events, alerts.',
  operate: 'Read, plus container actions, batch jobs, updates and alert actions.',
  admin: 'Everything except managing API keys and the password.',
};

const EXPIRIES = [
  { id: 'never', label: 'Never', days: null },
  { id: '30d', label: '30 days', days: 30 },
  { id: '90d', label: '90 days', days: 90 },
  { id: '1y', label: '1 year', days: 365 },
  { id: 'custom', label: 'Custom date', days: null },
] as const;
type ExpiryChoice = (typeof EXPIRIES)[number]['id'];

const DAY_MS = 24 * 60 * 60 * 1000;
/** `yyyy-mm-dd` of a local day, as a date input takes it. */
const dayInput = (ms: number) => new Date(ms).toLocaleDateString('sv-SE');

/** The expiry to send, or a message saying what is wrong with the choice. */
function expiryOf(choice: ExpiryChoice, custom: string): { at: string | null } | { error: string } {
  const preset = EXPIRIES.find((e) => e.id === choice);
  if (choice !== 'custom') {
    const days = preset?.days ?? null;
    return { at: days === null ? null : new Date(Date.now() + days * DAY_MS).toISOString() };
  }
  if (custom === '') return { error: 'Choose the expiry date' };
  // The key works through the whole chosen day, in the browser's time zone.
  const end = new Date(`${custom}T23:59:59.999`);
  if (Number.isNaN(end.getTime())) return { error: 'Choose a valid expiry date' };
  if (end.getTime() <= Date.now()) return { error: 'The expiry date must be in the future' };
  return { at: end.toISOString() };
}

/** "Create API key": the form, then the key itself, shown this once. */
export function CreateApiKeyDialog({ onClose }: { onClose: () => void }) {
  const create = useCreateApiKey();
  const [name, setName] = useState('');
  const [scope, setScope] = useState<ApiKeyScope>('read');
  const [expiry, setExpiry] = useState<ExpiryChoice>('never');
  const [customDate, setCustomDate] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [created, setCreated] = useState<CreatedApiKey | null>(null);
  const [tomorrow] = useState(() => dayInput(Date.now() + DAY_MS));

  if (created !== null) return <ShowKeyDialog created={created} onClose={onClose} />;

  const submit = () => {
    const expires = expiryOf(expiry, customDate);
    if ('error' in expires) {
      setError(expires.error);
      return;
    }
    const parsed = createApiKeyRequestSchema.safeParse({ name, scope, expires_at: expires.at });
    if (!parsed.success) {
      setError(parsed.error.issues[0]?.message ?? 'Invalid input');
      return;
    }
    setError(null);
    create.mutate(parsed.data, {
      onSuccess: (key) => {
        toast.success(`API key "${key.name}" created`);
        setCreated(key);
      },
      onError: (err) => setError(errorText(err)),
    });
  };

  return (
    <Dialog
      open
      onOpenChange={(o) => !o && onClose()}
      title="Create API key"
      description="The key is shown once, right after it is created."
    >
      <form
        className="grid gap-3 text-sm"
        onSubmit={(e) => {
          e.preventDefault();
          submit();
        }}
      >
        <label className="grid gap-1">
          <span className="text-slate-300">Name</span>
          <Input
            value={name}
            maxLength={100}
            placeholder="CI deploy"
            autoFocus
            onChange={(e) => setName(e.target.value)}
          />
        </label>
        <fieldset className="grid gap-1">
          <legend className="mb-1 text-slate-300">Scope</legend>
          {API_KEY_SCOPES.map((s) => (
            <label
              key={s}
              className="flex cursor-pointer items-start gap-2 rounded-md border border-slate-800 px-3 py-2 has-checked:border-accent"
            >
              <input
                type="radio"
                name="scope"
                value={s}
                className="mt-1 accent-(--color-accent)"
                checked={scope === s}
                onChange={() => setScope(s)}
              />
              <span>
                <span className="block text-slate-100">{SCOPE_LABELS[s]}</span>
                <span className="block text-xs text-slate-400">{SCOPE_HINTS[s]}</span>
              </span>
            </label>
          ))}
        </fieldset>
        <label className="grid gap-1">
          <span className="text-slate-300">Expires</span>
          <Select
            size="lg"
            value={expiry}
            aria-label="Expires"
            onChange={(e) => setExpiry(e.target.value as ExpiryChoice)}
          >
            {EXPIRIES.map((e) => (
              <option key={e.id} value={e.id}>
                {e.label}
              </option>
            ))}
          </Select>
        </label>
        {expiry === 'custom' && (
          <label className="grid gap-1">
            <span className="text-slate-300">Expiry date</span>
            <Input
              type="date"
              value={customDate}
              min={tomorrow}
              onChange={(e) => setCustomDate(e.target.value)}
            />
          </label>
        )}
        <FormFooter error={error} onCancel={onClose} submit="Create" pending={create.isPending} />
      </form>
    </Dialog>
  );
}

/** The new key, once, with a copy button; closing it is the last chance to copy it. */
function ShowKeyDialog({ created, onClose }: { created: CreatedApiKey; onClose: () => void }) {
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(created.key);
      toast.success('API key copied');
    } catch {
      // No clipboard outside a secure context (http:// on another machine): select it instead.
      toast.error('Copy failed: select the key and copy it');
    }
  };
  return (
    <Dialog
      open
      onOpenChange={(o) => !o && onClose()}
      title={`API key "${created.name}" created`}
      size="lg"
    >
      <div className="grid gap-3 text-sm">
        <p className="rounded-md border border-amber-500/40 bg-amber-500/10 px-3 py-2 text-amber-200">
          Copy this key now. You won&apos;t be able to see it again.
        </p>
        <div className="flex items-center gap-2">
          <Input
            readOnly
            value={created.key}
            aria-label="New API key"
            className="font-mono text-xs"
            onFocus={(e) => e.target.select()}
          />
          <Button variant="secondary" aria-label="Copy API key" onClick={() => void copy()}>
            <Copy className="h-4 w-4" /> Copy
          </Button>
        </div>
        <p className="text-xs text-slate-400">
          Scope: {SCOPE_LABELS[created.scope]} · Expires:{' '}
          {created.expires_at === null
            ? 'Never'
            : new Date(created.expires_at).toLocaleDateString(undefined, { dateStyle: 'medium' })}
        </p>
        <div className="flex justify-end">
          <Button onClick={onClose}>Done</Button>
        </div>
      </div>
    </Dialog>
  );
}
