import type { ResourcePruneResult } from '@berth/contracts';
import {
  useMutation,
  useQuery,
  useQueryClient,
  type QueryKey,
  type UseQueryOptions,
} from '@tanstack/react-query';
import { useState, type ReactNode } from 'react';
import { ConfirmDialog } from '@/components/confirm-dialog';
import { HostPicker } from '@/components/host-picker';
import { Button } from '@/components/ui/button';
import { Dialog } from '@/components/ui/dialog';
import { errorText } from '@/lib/api-client';
import { formatBytes } from '@/lib/format';
import { useChosenHost } from './resource-form';
import type { HostChoice, HostDialogProps } from './resource-view';

/** A resource's inspect answer, read-only: the main fields, then the engine's JSON whole. */
export function InspectDialog({
  title,
  testId,
  fields,
  error,
  raw,
  onClose,
}: {
  title: string;
  testId: string;
  /** The `<dt>`/`<dd>` pairs of the main fields. */
  fields: ReactNode;
  error: Error | null;
  /** The engine's answer, once it came. */
  raw: unknown;
  onClose: () => void;
}) {
  return (
    <Dialog open onOpenChange={(o) => !o && onClose()} title={title} size="xl">
      <div className="max-h-[70vh] space-y-4 overflow-y-auto text-sm" data-testid={testId}>
        <dl className="grid grid-cols-[8rem_1fr] gap-1 max-md:grid-cols-1">{fields}</dl>
        {error !== null && (
          <p role="alert" className="text-red-400">
            {errorText(error)}
          </p>
        )}
        {raw !== undefined && (
          <pre className="overflow-x-auto rounded-md bg-slate-950 p-3 font-mono text-xs text-slate-300">
            {JSON.stringify(raw, null, 2)}
          </pre>
        )}
      </div>
    </Dialog>
  );
}

/**
 * Remove a resource, naming the containers that use it. The engine refuses a plain remove of
 * one in use, in its words (shown here); where `canForce`, a second confirm forces it.
 */
export function RemoveResourceDialog<A>({
  noun,
  users,
  usersTestId,
  usersHeading,
  describe,
  canForce,
  remove,
  onRemoved,
  queryKey,
  onClose,
}: {
  noun: string;
  users: readonly { id: string; name: string; state: string }[];
  usersTestId: string;
  usersHeading: string;
  /** The confirm's description, plain or forced. */
  describe: (force: boolean) => string;
  canForce: boolean;
  remove: (force: boolean) => Promise<A>;
  /** Says so (a toast); the list is refreshed and the dialog closed after. */
  onRemoved: (answer: A) => void;
  queryKey: QueryKey;
  onClose: () => void;
}) {
  const client = useQueryClient();
  const [force, setForce] = useState(false);
  const mutation = useMutation({
    mutationFn: remove,
    onSuccess: (answer) => {
      onRemoved(answer);
      void client.invalidateQueries({ queryKey });
      onClose();
    },
  });
  return (
    <ConfirmDialog
      open
      title={force ? 'Force removal?' : `Remove ${noun}?`}
      description={describe(force)}
      confirmLabel={force ? 'Force remove' : 'Remove'}
      danger
      busy={mutation.isPending}
      onConfirm={() => mutation.mutate(force)}
      onCancel={onClose}
    >
      <div className="mb-4 space-y-2 text-sm">
        {users.length > 0 && (
          <div data-testid={usersTestId} className="rounded-md border border-amber-500/40 p-2">
            <p className="text-amber-300">{usersHeading}</p>
            <ul className="list-disc pl-5 text-slate-200">
              {users.map((u) => (
                <li key={u.id}>
                  {u.name} <span className="text-slate-400">({u.state})</span>
                </li>
              ))}
            </ul>
          </div>
        )}
        {mutation.error !== null && (
          <p role="alert" data-testid="remove-error" className="text-red-400">
            {errorText(mutation.error)}
          </p>
        )}
        {canForce && users.length > 0 && !force && (
          <Button variant="secondary" size="sm" onClick={() => setForce(true)}>
            Force…
          </Button>
        )}
      </div>
    </ConfirmDialog>
  );
}

/**
 * Prune a host's unused (or dangling) resources: the dry run first (`preview`, counted by
 * `countOf`), then the prune of what it found, then what the engine says it did.
 */
export function PruneResourceDialog<P, R, K extends QueryKey>({
  title,
  hosts,
  hostId: fixedHost,
  preview: previewOptions,
  countOf,
  counting,
  showPreview,
  prune: pruneFn,
  showResult,
  queryKey,
  onClose,
}: {
  title: string;
  hosts: HostChoice[];
  hostId: string | null;
  preview: (hostId: string) => UseQueryOptions<P, Error, P, K>;
  countOf: (preview: P | undefined) => number;
  /** Shown while the dry run runs. */
  counting: string;
  showPreview: (preview: P, count: number) => ReactNode;
  prune: (hostId: string, preview: P | undefined) => Promise<R>;
  showResult: (result: R) => ReactNode;
  queryKey: QueryKey;
  onClose: () => void;
}) {
  const client = useQueryClient();
  const [hostId, setHostId] = useChosenHost(hosts, fixedHost);
  const preview = useQuery({ ...previewOptions(hostId), enabled: hostId !== '' });
  const [done, setDone] = useState<R | null>(null);
  const prune = useMutation({
    mutationFn: () => pruneFn(hostId, preview.data),
    onSuccess: (answer) => {
      setDone(answer);
      void client.invalidateQueries({ queryKey });
    },
  });
  const count = countOf(preview.data);
  return (
    <Dialog open onOpenChange={(o) => !o && onClose()} title={title}>
      <div className="space-y-4 text-sm" data-testid="prune-dialog">
        {fixedHost === null && done === null && (
          <HostPicker hosts={hosts} value={hostId} onChange={setHostId} />
        )}
        {done !== null ? (
          showResult(done)
        ) : preview.isPending ? (
          <p className="text-slate-400">{counting}</p>
        ) : preview.error !== null ? (
          <p role="alert" className="text-red-400">
            {errorText(preview.error)}
          </p>
        ) : (
          showPreview(preview.data, count)
        )}
        {prune.error !== null && (
          <p role="alert" className="text-red-400">
            {errorText(prune.error)}
          </p>
        )}
        <div className="flex justify-end gap-2">
          <Button variant="secondary" onClick={onClose}>
            {done === null ? 'Cancel' : 'Close'}
          </Button>
          {done === null && (
            <Button
              variant="danger"
              disabled={prune.isPending || count === 0}
              onClick={() => prune.mutate()}
            >
              {prune.isPending ? 'Pruning…' : `Prune ${count}`}
            </Button>
          )}
        </div>
      </div>
    </Dialog>
  );
}

/** A name a dry run found, with what the prune is told (a volume's name, a network's id). */
export type PruneTarget = { key: string; name: string };

/**
 * Prune a host's unused volumes or networks: the dry run's count and names first (`summary`
 * says what the count means), then the prune of those only, then what was removed and kept.
 */
export function PruneUnusedDialog<P, K extends QueryKey>({
  noun,
  preview,
  found,
  summary,
  prune,
  freed,
  queryKey,
  ...host
}: HostDialogProps & {
  noun: string;
  preview: (hostId: string) => UseQueryOptions<P, Error, P, K>;
  found: (preview: P) => PruneTarget[];
  summary: (count: number, preview: P) => string;
  prune: (hostId: string, keys: string[]) => Promise<ResourcePruneResult>;
  /** Whether the result says the space freed (when the engine measured it). */
  freed: boolean;
  queryKey: QueryKey;
}) {
  return (
    <PruneResourceDialog
      title={`Prune unused ${noun}s`}
      {...host}
      preview={preview}
      countOf={(p) => (p === undefined ? 0 : found(p).length)}
      counting={`Counting unused ${noun}s…`}
      showPreview={(p, count) => (
        <>
          <p data-testid="prune-preview" className="text-slate-200">
            {count === 0 ? `No unused ${noun}s to remove.` : summary(count, p)}
          </p>
          {count > 0 && (
            <ul className="max-h-40 list-disc overflow-y-auto pl-5 text-slate-300">
              {found(p).map((n) => (
                <li key={n.key}>{n.name}</li>
              ))}
            </ul>
          )}
        </>
      )}
      prune={(hostId, p) => prune(hostId, p === undefined ? [] : found(p).map((n) => n.key))}
      showResult={(done) => (
        <div data-testid="prune-result" className="space-y-1 text-slate-200">
          <p>
            Removed {done.removed.length} {noun}
            {done.removed.length === 1 ? '' : 's'}
            {!freed || done.space_bytes === null ? '' : `, freed ${formatBytes(done.space_bytes)}`}.
          </p>
          {done.skipped.map((s) => (
            <p key={s.name} className="text-amber-300">
              Kept {s.name}: {s.reason}
            </p>
          ))}
        </div>
      )}
      queryKey={queryKey}
    />
  );
}
