import type { Image } from '@berth/contracts';
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

export interface ImageActions {
  inspect: (image: Image) => void;
  remove: (image: Image) => void;
  canOperate: boolean;
}

/** A row's key: an image is one per host. */
export const imageKey = (i: Image): string => `${i.host_id}:${i.id}`;

/** What the first column shows: the tags, or `<none>` for a dangling image. */
export const imageName = (i: Image): string => (i.tags.length === 0 ? '<none>' : i.tags.join(', '));

/** The dangling and unused badges. */
export function ImageBadges({ image }: { image: Image }) {
  return (
    <span className="inline-flex gap-1">
      {image.dangling && (
        <span
          data-testid="badge-dangling"
          className="rounded bg-amber-500/15 px-1.5 py-0.5 text-[11px] font-medium text-amber-300"
        >
          dangling
        </span>
      )}
      {image.unused && (
        <span
          data-testid="badge-unused"
          className="rounded bg-slate-700/60 px-1.5 py-0.5 text-[11px] font-medium text-slate-300"
        >
          unused
        </span>
      )}
    </span>
  );
}

/** The containers using an image, by name. */
export const usedByText = (i: Image): string =>
  i.used_by.length === 0 ? '—' : i.used_by.map((u) => u.name).join(', ');

function columnsFor(actions: ImageActions, showHost: boolean): ColumnDef<Image>[] {
  const columns: ColumnDef<Image>[] = [
    {
      id: 'name',
      header: 'Repository:tag',
      accessorFn: imageName,
      cell: ({ row }) => (
        <div className="flex min-w-0 flex-col gap-1">
          <span className="truncate font-medium text-white" title={imageName(row.original)}>
            {imageName(row.original)}
          </span>
          <ImageBadges image={row.original} />
        </div>
      ),
    },
    ...(showHost
      ? [
          {
            id: 'host',
            header: 'Host',
            size: 140,
            accessorFn: (i: Image) => i.host_name,
          } satisfies ColumnDef<Image>,
        ]
      : []),
    {
      id: 'id',
      header: 'ID',
      size: 130,
      accessorFn: (i) => i.short_id,
      cell: ({ getValue }) => <code className="text-xs text-slate-300">{String(getValue())}</code>,
    },
    {
      id: 'size',
      header: 'Size',
      size: 100,
      accessorFn: (i) => i.size,
      cell: ({ row }) => formatBytes(row.original.size),
    },
    {
      id: 'created',
      header: 'Created',
      size: 110,
      accessorFn: (i) => i.created,
      cell: ({ row }) => (
        <span title={new Date(row.original.created).toLocaleString()}>
          {formatAgo(row.original.created)}
        </span>
      ),
    },
    {
      id: 'used_by',
      header: 'In use by',
      size: 200,
      accessorFn: (i) => i.used_by.length,
      cell: ({ row }) => (
        <span className="line-clamp-2 text-slate-300" title={usedByText(row.original)}>
          {usedByText(row.original)}
        </span>
      ),
    },
    {
      id: 'actions',
      header: '',
      size: 96,
      enableSorting: false,
      cell: ({ row }) => (
        <div className="flex justify-end gap-1">
          <Button
            variant="ghost"
            size="icon"
            aria-label={`Inspect ${imageName(row.original)}`}
            onClick={() => actions.inspect(row.original)}
          >
            <Info className="h-4 w-4" aria-hidden />
          </Button>
          {actions.canOperate && (
            <Button
              variant="ghost"
              size="icon"
              aria-label={`Remove ${imageName(row.original)}`}
              onClick={() => actions.remove(row.original)}
            >
              <Trash2 className="h-4 w-4" aria-hidden />
            </Button>
          )}
        </div>
      ),
    },
  ];
  return columns;
}

/** The images as a dense, sortable table; past 100 rows only those in view are drawn. */
export function ImagesTable({
  images,
  actions,
  showHost,
}: {
  images: Image[];
  actions: ImageActions;
  showHost: boolean;
}) {
  const [sorting, setSorting] = useState<SortingState>([{ id: 'created', desc: true }]);
  const columns = useMemo(() => columnsFor(actions, showHost), [actions, showHost]);
  // eslint-disable-next-line react-hooks/incompatible-library
  const table = useReactTable({
    data: images,
    columns,
    state: { sorting },
    getRowId: imageKey,
    onSortingChange: setSorting,
    getCoreRowModel: getCoreRowModel(),
    getSortedRowModel: getSortedRowModel(),
  });
  return <DataTable table={table} dense rowTestId={(i) => `image-row-${i.short_id}`} />;
}

/** How many cards a phone draws at first; more on request (a card list is not virtualised). */
const CARDS_AT_ONCE = 100;

/** The images as cards, for a phone. */
export function ImageCards({ images, actions }: { images: Image[]; actions: ImageActions }) {
  const [shown, setShown] = useState(CARDS_AT_ONCE);
  return (
    <ul className="flex flex-col gap-2" data-testid="image-cards">
      {images.slice(0, shown).map((i) => (
        <li
          key={imageKey(i)}
          data-testid={`image-card-${i.short_id}`}
          className="rounded-xl border border-slate-800 bg-slate-900 p-3"
        >
          <div className="flex items-start justify-between gap-2">
            <div className="min-w-0">
              <p className="truncate font-medium text-white">{imageName(i)}</p>
              <p className="text-xs text-slate-400">
                {i.host_name} · <code>{i.short_id}</code> · {formatBytes(i.size)} ·{' '}
                {formatAgo(i.created)}
              </p>
              <p className="truncate text-xs text-slate-400">In use by: {usedByText(i)}</p>
              <ImageBadges image={i} />
            </div>
            <div className="flex shrink-0 gap-1">
              <Button
                variant="ghost"
                size="touch"
                aria-label={`Inspect ${imageName(i)}`}
                onClick={() => actions.inspect(i)}
              >
                <Info className="h-4 w-4" aria-hidden />
              </Button>
              {actions.canOperate && (
                <Button
                  variant="ghost"
                  size="touch"
                  aria-label={`Remove ${imageName(i)}`}
                  onClick={() => actions.remove(i)}
                >
                  <Trash2 className="h-4 w-4" aria-hidden />
                </Button>
              )}
            </div>
          </div>
        </li>
      ))}
      {images.length > shown && (
        <li>
          <Button
            variant="secondary"
            size="touch"
            className="w-full"
            onClick={() => setShown((n) => n + CARDS_AT_ONCE)}
          >
            Show more ({images.length - shown} left)
          </Button>
        </li>
      )}
    </ul>
  );
}
