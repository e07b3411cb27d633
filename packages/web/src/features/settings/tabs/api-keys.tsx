import type { ApiKey } from '@berth/contracts';
import { useQuery } from '@tanstack/react-query';
import { KeyRound, Plus } from 'lucide-react';
import { useState } from 'react';
import { toast } from 'sonner';
import { ConfirmDialog } from '@/components/confirm-dialog';
import { Button } from '@/components/ui/button';
import { errorText } from '@/lib/api-client';
import { apiKeysQueryOptions, useRevokeApiKey } from '../api/api-keys-api';
import { SettingsSection } from '../components/setting-row';
import { CreateApiKeyDialog, SCOPE_LABELS } from './api-keys-create';

const dateOf = (iso: string) =>
  new Date(iso).toLocaleDateString(undefined, { dateStyle: 'medium' });
const dateTimeOf = (iso: string) =>
  new Date(iso).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });

/** Settings → API Keys: keys for scripts and other tools, each shown once when made. */
export default function ApiKeysSettingsTab() {
  const list = useQuery(apiKeysQueryOptions());
  const [creating, setCreating] = useState(false);
  const [revoking, setRevoking] = useState<ApiKey | null>(null);
  return (
    <SettingsSection title="API keys">
      <p className="flex items-start gap-2 py-2 text-xs text-slate-400">
        <KeyRound className="mt-0.5 h-3.5 w-3.5 shrink-0" aria-hidden />
        <span>
          Scripts and other tools call Berth&apos;s API with{' '}
          <code className="font-mono text-slate-300">Authorization: Bearer &lt;key&gt;</code>. A key
          acts for the user who made it, within its scope; Berth keeps only a hash of it.
        </span>
      </p>
      {list.isError ? (
        <p className="py-2 text-sm text-red-300">
          Failed to load API keys: {errorText(list.error)}
        </p>
      ) : list.data === undefined ? (
        <p className="py-2 text-sm text-slate-400">Loading…</p>
      ) : list.data.length === 0 ? (
        <p className="py-2 text-sm text-slate-500">No API keys</p>
      ) : (
        <KeysTable keys={list.data} fetchedAt={list.dataUpdatedAt} onRevoke={setRevoking} />
      )}
      <div className="py-3">
        <Button size="sm" variant="secondary" onClick={() => setCreating(true)}>
          <Plus className="h-4 w-4" /> Create API key
        </Button>
      </div>
      {creating && <CreateApiKeyDialog onClose={() => setCreating(false)} />}
      {revoking !== null && <RevokeDialog apiKey={revoking} onClose={() => setRevoking(null)} />}
    </SettingsSection>
  );
}

/** `fetchedAt`: when the list was read, the moment "Expired" is judged at. */
function KeysTable({
  keys,
  fetchedAt,
  onRevoke,
}: {
  keys: ApiKey[];
  fetchedAt: number;
  onRevoke: (key: ApiKey) => void;
}) {
  return (
    <div className="overflow-x-auto">
      <table className="w-full text-left text-sm" data-testid="api-keys">
        <thead className="text-xs text-slate-500 uppercase">
          <tr>
            <th className="py-1 pr-3 font-medium">Name</th>
            <th className="py-1 pr-3 font-medium">Scope</th>
            <th className="py-1 pr-3 font-medium">Key</th>
            <th className="py-1 pr-3 font-medium">Created</th>
            <th className="py-1 pr-3 font-medium">Last used</th>
            <th className="py-1 pr-3 font-medium">Expires</th>
            <th className="py-1 font-medium">
              <span className="sr-only">Actions</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {keys.map((k) => {
            const expired = k.expires_at !== null && Date.parse(k.expires_at) <= fetchedAt;
            return (
              <tr key={k.id} className="border-t border-slate-800" data-testid="api-key-row">
                <td className="py-2 pr-3 text-slate-100">{k.name}</td>
                <td className="py-2 pr-3 text-slate-300">{SCOPE_LABELS[k.scope]}</td>
                <td className="py-2 pr-3 font-mono text-xs text-slate-400">{k.prefix}…</td>
                <td className="py-2 pr-3 text-slate-400" title={dateTimeOf(k.created_at)}>
                  {dateOf(k.created_at)}
                </td>
                <td className="py-2 pr-3 text-slate-400">
                  {k.last_used_at === null ? 'Never' : dateTimeOf(k.last_used_at)}
                </td>
                <td className="py-2 pr-3 text-slate-400">
                  {k.expires_at === null ? 'Never' : dateOf(k.expires_at)}
                  {expired && (
                    <span className="ml-2 inline-block rounded bg-red-500/15 px-1.5 py-0.5 text-xs font-medium text-red-200">
                      Expired
                    </span>
                  )}
                </td>
                <td className="py-2 text-right">
                  <Button
                    size="xs"
                    variant="ghost"
                    aria-label={`Revoke ${k.name}`}
                    onClick={() => onRevoke(k)}
                  >
                    Revoke
                  </Button>
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}

function RevokeDialog({ apiKey, onClose }: { apiKey: ApiKey; onClose: () => void }) {
  const revoke = useRevokeApiKey();
  return (
    <ConfirmDialog
      open
      title="Revoke API key"
      description={`Revoke "${apiKey.name}"? Every script using it is refused from now on. This cannot be undone.`}
      confirmLabel="Revoke"
      danger
      busy={revoke.isPending}
      onCancel={onClose}
      onConfirm={() =>
        revoke.mutate(apiKey.id, {
          onSuccess: () => {
            toast.success(`API key "${apiKey.name}" revoked`);
            onClose();
          },
          onError: (err) => toast.error(`Failed to revoke API key: ${errorText(err)}`),
        })
      }
    />
  );
}
