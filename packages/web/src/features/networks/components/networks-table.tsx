import type { Network } from '@berth/contracts';
import {
  getCoreRowModel,
  getSortedRowModel,
  useReactTable,
  type ColumnDef,
  type SortingState,
} from '@tanstack/react-table';
import { Info, Trash2 } from 'lucide-react';
import { useMemo, useState } from 'react';
import { DataTable } from '@/components/data-table';
import { Button } from '@/components/ui/button';
import { formatAgo } from '@/lib/format';
import { dependantsText } from '@/lib/key-values';

export interface NetworkActions {
  inspect: (network: Network) => void;
  remove: (network: Network) => void;
  canChange: boolean;
}

export const networkKey = (n: Network): string => `${n.host_id}:${n.id}`;

export const subnetText = (n: Network): string =>
  n.subnets.length === 0
    ? '—'
    : n.subnets
        .map((s) => `${s.subnet ?? '?'}${s.gateway === null ? '' : ` via ${s.gateway}`}`)
        .join(', ');

const BADGE = 'rounded px-1.5 py-0.5 text-[11px] font-medium';

export function NetworkBadges({ n }: { n: Network }) {
  return (
    <span className="inline-flex flex-wrap gap-1">
      {n.builtin && (
        <span data-testid="badge-builtin" className={`${BADGE} bg-sky-500/15 text-sky-300`}>
          built-in
        </span>
      )}
      {!n.builtin && n.in_use_by.length === 0 && (
        <span data-testid="badge-unused" className={`${BADGE} bg-slate-700/60 text-slate-300`}>
          unused
        </span>
      )}
      {n.internal && <span className={`${BADGE} bg-amber-500/15 text-amber-300`}>internal</span>}
      {n.attachable && (
        <span className={`${BADGE} bg-slate-700/60 text-slate-300`}>attachable</span>
      )}
    </span>
  );
}

function RowButtons({
  n,
  actions,
  size,
}: {
  n: Network;
  actions: NetworkActions;
  size: 'icon' | 'touch';
}) {
  return (
    <div className="flex shrink-0 justify-end gap-1">
      <Button
        variant="ghost"
        size={size}
        aria-label={`Inspect ${n.name}`}
        onClick={() => actions.inspect(n)}
      >
        <Info className="h-4 w-4" aria-hidden />
      </Button>
      {actions.canChange && !n.builtin && (
        <Button
          variant="ghost"
          size={size}
          aria-label={`Remove ${n.name}`}
          onClick={() => actions.remove(n)}
        >
          <Trash2 className="h-4 w-4" aria-hidden />
        </Button>
      )}
    </div>
  );
}

function columnsFor(actions: NetworkActions, showHost: boolean): ColumnDef<Network>[] {
  return [
    {
      id: 'name',
      header: 'Name',
      accessorFn: (n) => n.name,
      cell: ({ row }) => (
        <div className="flex min-w-0 flex-col gap-1">
          <span className="truncate font-medium text-white" title={row.original.name}>
            {row.original.name}
          </span>
          <NetworkBadges n={row.original} />
        </div>
      ),
    },
    ...(showHost
      ? [
          {
            id: 'host',
            header: 'Host',
            size: 140,
            accessorFn: (n: Network) => n.host_name,
          } satisfies ColumnDef<Network>,
        ]
      : []),
    { id: 'driver', header: 'Driver', size: 90, accessorFn: (n) => n.driver },
    { id: 'scope', header: 'Scope', size: 80, accessorFn: (n) => n.scope },
    {
      id: 'subnet',
      header: 'Subnet',
      size: 200,
      accessorFn: subnetText,
      cell: ({ getValue }) => <code className="text-xs text-slate-300">{String(getValue())}</code>,
    },
    {
      id: 'created',
      header: 'Created',
      size: 110,
      accessorFn: (n) => n.created ?? '',
      cell: ({ row }) => (row.original.created === null ? '—' : formatAgo(row.original.created)),
    },
    {
      id: 'in_use_by',
      header: 'Containers',
      size: 200,
      accessorFn: (n) => n.in_use_by.length,
      cell: ({ row }) => (
        <span
          className="line-clamp-2 text-slate-300"
          title={dependantsText(row.original.in_use_by)}
        >
          {dependantsText(row.original.in_use_by)}
        </span>
      ),
    },
    {
      id: 'actions',
      header: '',
      size: 96,
      enableSorting: false,
      cell: ({ row }) => <RowButtons n={row.original} actions={actions} size="icon" />,
    },
  ];
}

/** The networks as a dense, sortable table; past 100 rows only those in view are drawn. */
export function NetworksTable({
  networks,
  actions,
  showHost,
}: {
  networks: Network[];
  actions: NetworkActions;
  showHost: boolean;
}) {
  const [sorting, setSorting] = useState<SortingState>([]);
  const columns = useMemo(() => columnsFor(actions, showHost), [actions, showHost]);
  // eslint-disable-next-line react-hooks/incompatible-library
  const table = useReactTable({
    data: networks,
    columns,
    state: { sorting },
    getRowId: networkKey,
    onSortingChange: setSorting,
    getCoreRowModel: getCoreRowModel(),
    getSortedRowModel: getSortedRowModel(),
  });
  return <DataTable table={table} dense rowTestId={(n) => `network-row-${n.name}`} />;
}

const CARDS_AT_ONCE = 100;

/** The networks as cards, for a phone. */
export function NetworkCards({
  networks,
  actions,
}: {
  networks: Network[];
  actions: NetworkActions;
}) {
  const [shown, setShown] = useState(CARDS_AT_ONCE);
  return (
    <ul className="flex flex-col gap-2" data-testid="network-cards">
      {networks.slice(0, shown).map((n) => (
        <li
          key={networkKey(n)}
          data-testid={`network-card-${n.name}`}
          className="rounded-xl border border-slate-800 bg-slate-900 p-3"
        >
          <div className="flex items-start justify-between gap-2">
            <div className="min-w-0">
              <p className="truncate font-medium text-white">{n.name}</p>
              <p className="text-xs text-slate-400">
                {n.host_name} · {n.driver} · {n.scope} · {subnetText(n)}
              </p>
              <p className="truncate text-xs text-slate-400">
                Containers: {dependantsText(n.in_use_by)}
              </p>
              <NetworkBadges n={n} />
            </div>
            <RowButtons n={n} actions={actions} size="touch" />
          </div>
        </li>
      ))}
      {networks.length > shown && (
        <li>
          <Button
            variant="secondary"
            size="touch"
            className="w-full"
            onClick={() => setShown((k) => k + CARDS_AT_ONCE)}
          >
            Show more ({networks.length - shown} left)
          </Button>
        </li>
      )}
    </ul>
  );
}
