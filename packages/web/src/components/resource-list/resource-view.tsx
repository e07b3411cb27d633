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
import type { ResourceActions } from './resource-columns';

export type HostChoice = { id: string; name: string };

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

/** The items the search keeps; `matches` is a module's function (stable). */
export function useShown<T>(
  items: readonly T[] | undefined,
  query: string,
  matches: (item: T, query: string) => boolean,
): T[] {
  return useMemo(() => (items ?? []).filter((t) => matches(t, query)), [items, query, matches]);
}

/** Which dialog is open: one on a row's item, or a host-wide one (create or pull, prune). */
export type OpenDialog<T> =
  { kind: 'inspect' | 'remove'; item: T } | { kind: 'create' | 'prune' } | null;

/** The open dialog, and the row buttons' actions that open theirs. */
export function useOpenDialog<T>() {
  const [open, setOpen] = useState<OpenDialog<T>>(null);
  const actions = useMemo<ResourceActions<T>>(
    () => ({
      inspect: (item) => setOpen({ kind: 'inspect', item }),
      remove: (item) => setOpen({ kind: 'remove', item }),
    }),
    [],
  );
  return { open, setOpen, close: () => setOpen(null), actions };
}

/**
 * The frame every resource list shares: host filter, search, count, the change buttons, each
 * failed host, the load error, and then loading, empty, or the list (cards on a phone).
 */
export function ResourceView({
  scope,
  noun,
  testId,
  search,
  shown,
  total,
  create,
  onPrune,
  failed,
  notice,
  error,
  pending,
  empty,
  list,
  children,
}: {
  scope: ResourceScope;
  /** Singular, lower case: `network`. */
  noun: string;
  /** The view's test id in the fleet page; the host tab's is `host-` before it. */
  testId: string;
  search: { label: string; placeholder: string };
  shown: number;
  total: number;
  /** The first change button (Create, Pull); with `onPrune`, left out for those who may not. */
  create?: { icon: LucideIcon; label: string; onClick: () => void } | undefined;
  onPrune?: (() => void) | undefined;
  failed: readonly { host_id: string; host_name: string; error: string | null }[];
  notice?: ReactNode;
  error: Error | null;
  pending: boolean;
  empty: LucideIcon;
  list: (phone: boolean) => ReactNode;
  /** The dialogs. */
  children?: ReactNode;
}) {
  const phone = usePhone();
  const touch = phone ? 'touch' : 'sm';
  const CreateIcon = create?.icon;
  return (
    <div className="space-y-4" data-testid={scope.fixedHost === null ? testId : `host-${testId}`}>
      <div className="flex flex-wrap items-center gap-2">
        {scope.fixedHost === null && (
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
            aria-label={search.label}
            placeholder={search.placeholder}
            className="pl-8"
            size={phone ? 'touch' : 'md'}
            value={scope.search}
            onChange={(e) => scope.setSearch(e.target.value)}
          />
        </div>
        <span className="text-sm text-slate-400" data-testid={`${noun}-count`}>
          {shown === total ? `${total} ${noun}(s)` : `${shown} of ${total} ${noun}(s)`}
        </span>
        {create !== undefined && CreateIcon !== undefined && (
          <Button size={touch} onClick={create.onClick}>
            <CreateIcon className="h-4 w-4" aria-hidden /> {create.label}
          </Button>
        )}
        {onPrune !== undefined && (
          <Button variant="secondary" size={touch} onClick={onPrune}>
            <Trash className="h-4 w-4" aria-hidden /> Prune
          </Button>
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
      {error !== null && (
        <p role="alert" className="text-sm text-red-400">
          {errorText(error)}
        </p>
      )}
      {pending ? (
        <p className="text-sm text-slate-400">Loading {noun}s…</p>
      ) : shown === 0 ? (
        <EmptyState icon={empty} title={total === 0 ? `No ${noun}s` : `No ${noun} matches`} />
      ) : (
        list(phone)
      )}
      {children}
    </div>
  );
}
