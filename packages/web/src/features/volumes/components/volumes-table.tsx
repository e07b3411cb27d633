import type { Volume } from '@berth/contracts';
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
import { formatAgo, formatBytes } from '@/lib/format';
import { dependantsText } from '@/lib/key-values';

export interface VolumeActions {
  inspect: (volume: Volume) => void;
  remove: (volume: Volume) => void;
  canChange: boolean;
}

/** A row's key: a volume's name is unique on its host. */
export const volumeKey = (v: Volume): string => `${v.host_id}:${v.name}`;

export function UnusedBadge({ unused }: { unused: boolean }) {
  if (!unused) return null;
  return (
    <span
      data-testid="badge-unused"
      className="rounded bg-slate-700/60 px-1.5 py-0.5 text-[11px] font-medium text-slate-300"
    >
      unused
    </span>
  );
}

const sizeText = (v: Volume) => (v.size_bytes === null ? '—' : formatBytes(v.size_bytes));

function RowButtons({
  v,
  actions,
  size,
}: {
  v: Volume;
  actions: VolumeActions;
  size: 'icon' | 'touch';
}) {
  return (
    <div className="flex shrink-0 justify-end gap-1">
      <Button
        variant="ghost"
        size={size}
        aria-label={`Inspect ${v.name}`}
        onClick={() => actions.inspect(v)}
      >
        <Info className="h-4 w-4" aria-hidden />
      </Button>
      {actions.canChange && (
        <Button
          variant="ghost"
          size={size}
          aria-label={`Remove ${v.name}`}
          onClick={() => actions.remove(v)}
        >
          <Trash2 className="h-4 w-4" aria-hidden />
        </Button>
      )}
    </div>
  );
}

function columnsFor(actions: VolumeActions, showHost: boolean): ColumnDef<Volume>[] {
  return [
    {
      id: 'name',
      header: 'Name',
      accessorFn: (v) => v.name,
      cell: ({ row }) => (
        <div className="flex min-w-0 flex-col gap-1">
          <span className="truncate font-medium text-white" title={row.original.name}>
            {row.original.name}
          </span>
          <span>
            <UnusedBadge unused={row.original.in_use_by.length === 0} />
          </span>
        </div>
      ),
    },
    ...(showHost
      ? [
          {
            id: 'host',
            header: 'Host',
            size: 140,
            accessorFn: (v: Volume) => v.host_name,
          } satisfies ColumnDef<Volume>,
        ]
      : []),
    { id: 'driver', header: 'Driver', size: 100, accessorFn: (v) => v.driver },
    {
      id: 'size',
      header: 'Size',
      size: 100,
      accessorFn: (v) => v.size_bytes ?? -1,
      cell: ({ row }) => sizeText(row.original),
    },
    {
      id: 'created',
      header: 'Created',
      size: 110,
      accessorFn: (v) => v.created ?? '',
      cell: ({ row }) =>
        row.original.created === null ? (
          '—'
        ) : (
          <span title={new Date(row.original.created).toLocaleString()}>
            {formatAgo(row.original.created)}
          </span>
        ),
    },
    {
      id: 'in_use_by',
      header: 'In use by',
      size: 200,
      accessorFn: (v) => v.in_use_by.length,
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
      cell: ({ row }) => <RowButtons v={row.original} actions={actions} size="icon" />,
    },
  ];
}

/** The volumes as a dense, sortable table; past 100 rows only those in view are drawn. */
export function VolumesTable({
  volumes,
  actions,
  showHost,
}: {
  volumes: Volume[];
  actions: VolumeActions;
  showHost: boolean;
}) {
  const [sorting, setSorting] = useState<SortingState>([]);
  const columns = useMemo(() => columnsFor(actions, showHost), [actions, showHost]);
  // eslint-disable-next-line react-hooks/incompatible-library
  const table = useReactTable({
    data: volumes,
    columns,
    state: { sorting },
    getRowId: volumeKey,
    onSortingChange: setSorting,
    getCoreRowModel: getCoreRowModel(),
    getSortedRowModel: getSortedRowModel(),
  });
  return <DataTable table={table} dense rowTestId={(v) => `volume-row-${v.name}`} />;
}

/** How many cards a phone draws at first; more on request (a card list is not virtualised). */
const CARDS_AT_ONCE = 100;

/** The volumes as cards, for a phone. */
export function VolumeCards({ volumes, actions }: { volumes: Volume[]; actions: VolumeActions }) {
  const [shown, setShown] = useState(CARDS_AT_ONCE);
  return (
    <ul className="flex flex-col gap-2" data-testid="volume-cards">
      {volumes.slice(0, shown).map((v) => (
        <li
          key={volumeKey(v)}
          data-testid={`volume-card-${v.name}`}
          className="rounded-xl border border-slate-800 bg-slate-900 p-3"
        >
          <div className="flex items-start justify-between gap-2">
            <div className="min-w-0">
              <p className="truncate font-medium text-white">{v.name}</p>
              <p className="text-xs text-slate-400">
                {v.host_name} · {v.driver} · {sizeText(v)}
                {v.created === null ? '' : ` · ${formatAgo(v.created)}`}
              </p>
              <p className="truncate text-xs text-slate-400">
                In use by: {dependantsText(v.in_use_by)}
              </p>
              <UnusedBadge unused={v.in_use_by.length === 0} />
            </div>
            <RowButtons v={v} actions={actions} size="touch" />
          </div>
        </li>
      ))}
      {volumes.length > shown && (
        <li>
          <Button
            variant="secondary"
            size="touch"
            className="w-full"
            onClick={() => setShown((n) => n + CARDS_AT_ONCE)}
          >
            Show more ({volumes.length - shown} left)
          </Button>
        </li>
      )}
    </ul>
  );
}
