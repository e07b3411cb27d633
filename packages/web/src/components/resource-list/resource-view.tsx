import { useQuery } from '@tanstack/react-query';
import type { LucideIcon } from 'lucide-react';
import { Search, Trash } from 'lucide-react';
import { useDeferredValue, useMemo, useState, type ReactNode } from 'react';
import { EmptyState } from '@/components/empty-state';
import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import { Select } from '@/components/ui/select';
import { usePhone } from '@/hooks/use-breakpoint';
import { errorText } from '@/lib/api-client';
import { hostsQueryOptions } from '@/lib/queries';
import { ResourceList, type ResourceActions, type ResourceListSpec } from './resource-columns';

export type HostChoice = { id: string; name: string };

/** What a host-wide dialog (create, pull, prune) is given: the hosts, the tab's own host. */
export interface HostDialogProps {
  hosts: HostChoice[];
  /** The host modal tab's host; null in the fleet view, which picks one. */
  hostId: string | null;
  onClose: () => void;
}

/**
 * The host filter and search a resource list keeps: the fleet's with a filter, or one host's
 * (`fixedHost`, the host modal's tab). `hostId` is what the list query asks for.
 */
export function useResourceScope(fixedHost: string | null) {
  const [hostFilter, setHostFilter] = useState('');
  const [search, setSearch] = useState('');
  const query = useDeferredValue(search.trim().toLowerCase());
  const hostId = fixedHost ?? (hostFilter === '' ? null : hostFilter);
  const hosts = useQuery(hostsQueryOptions());
  const hostList = useMemo<HostChoice[]>(
    () =>
      (hosts.data ?? [])
        .filter((h) => fixedHost === null || h.id === fixedHost)
        .map((h) => ({ id: h.id, name: h.name })),
    [hosts.data, fixedHost],
  );
  return { fixedHost, hostFilter, setHostFilter, search, setSearch, query, hostId, hostList };
}

export type ResourceScope = ReturnType<typeof useResourceScope>;

/** Which dialog is open: one on a row's item, or a host-wide one (create or pull, prune). */
export type OpenDialog<T> =
  { kind: 'inspect' | 'remove'; item: T } | { kind: 'create' | 'prune' } | null;

/**
 * A resource's screen, the fleet's or a host tab's: host filter, search, count, the change
 * buttons (for those who `can`), each failed host, the load error, then loading, empty, or the
 * list (cards on a phone), and the open dialog.
 */
export function ResourceView<T>({
  scope,
  spec,
  all,
  list,
  can,
  create,
  failed,
  notice,
  dialogs,
}: {
  scope: ResourceScope;
  spec: ResourceListSpec<T>;
  /** Every item the query answered (before the search). */
  all: readonly T[] | undefined;
  list: { error: Error | null; isPending: boolean };
  can: boolean;
  /** The first change button (Create, Pull); it opens the `create` dialog. */
  create: { icon: LucideIcon; label: string };
  failed: readonly { host_id: string; host_name: string; error: string | null }[];
  notice?: ReactNode;
  dialogs: (open: OpenDialog<T>, close: () => void) => ReactNode;
}) {
  const phone = usePhone();
  const touch = phone ? 'touch' : 'sm';
  const { noun, matches } = spec;
  const { query, fixedHost } = scope;
  const [open, setOpen] = useState<OpenDialog<T>>(null);
  const actions = useMemo<ResourceActions<T>>(
    () => ({
      inspect: (item) => setOpen({ kind: 'inspect', item }),
      remove: (item) => setOpen({ kind: 'remove', item }),
    }),
    [],
  );
  const shown = useMemo(() => (all ?? []).filter((t) => matches(t, query)), [all, query, matches]);
  const total = all?.length ?? 0;
  const CreateIcon = create.icon;
  return (
    <div
      className="space-y-4"
      data-testid={fixedHost === null ? `${noun}s-view` : `host-${noun}s-view`}
    >
      <div className="flex flex-wrap items-center gap-2">
        {fixedHost === null && (
          <Select
            aria-label="Host filter"
            value={scope.hostFilter}
            onChange={(e) => scope.setHostFilter(e.target.value)}
            size={phone ? 'touch' : 'md'}
          >
            <option value="">All hosts</option>
            {scope.hostList.map((h) => (
              <option key={h.id} value={h.id}>
                {h.name}
              </option>
            ))}
          </Select>
        )}
        <div className="relative min-w-48 flex-1">
          <Search
            className="pointer-events-none absolute top-1/2 left-2 h-4 w-4 -translate-y-1/2 text-slate-500"
            aria-hidden
          />
          <Input
            aria-label={`Search ${noun}s`}
            placeholder={spec.searchPlaceholder}
            className="pl-8"
            size={phone ? 'touch' : 'md'}
            value={scope.search}
            onChange={(e) => scope.setSearch(e.target.value)}
          />
        </div>
        <span className="text-sm text-slate-400" data-testid={`${noun}-count`}>
          {shown.length === total
            ? `${total} ${noun}(s)`
            : `${shown.length} of ${total} ${noun}(s)`}
        </span>
        {can && (
          <>
            <Button size={touch} onClick={() => setOpen({ kind: 'create' })}>
              <CreateIcon className="h-4 w-4" aria-hidden /> {create.label}
            </Button>
            <Button variant="secondary" size={touch} onClick={() => setOpen({ kind: 'prune' })}>
              <Trash className="h-4 w-4" aria-hidden /> Prune
            </Button>
          </>
        )}
      </div>

      {failed
        .filter((f) => f.error !== null)
        .map((f) => (
          <p key={f.host_id} role="alert" className="text-sm text-amber-300">
            {f.host_name}: {f.error}
          </p>
        ))}
      {notice}
      {list.error !== null && (
        <p role="alert" className="text-sm text-red-400">
          {errorText(list.error)}
        </p>
      )}
      {list.isPending ? (
        <p className="text-sm text-slate-400">Loading {noun}s…</p>
      ) : shown.length === 0 ? (
        <EmptyState icon={spec.icon} title={total === 0 ? `No ${noun}s` : `No ${noun} matches`} />
      ) : (
        <ResourceList
          spec={spec}
          phone={phone}
          items={shown}
          actions={actions}
          can={can}
          showHost={fixedHost === null}
        />
      )}
      {dialogs(open, () => setOpen(null))}
    </div>
  );
}
