import {
  getCoreRowModel,
  getSortedRowModel,
  useReactTable,
  type ColumnDef,
  type SortingState,
} from '@tanstack/react-table';
import { Info, Trash2, type LucideIcon } from 'lucide-react';
import { useMemo, useState, type ReactNode } from 'react';
import { DataTable } from '@/components/data-table';
import { Button } from '@/components/ui/button';
import { formatAgo } from '@/lib/format';
import { dependantsText } from '@/lib/key-values';

/** What a row's buttons do. */
export interface ResourceActions<T> {
  inspect: (item: T) => void;
  remove: (item: T) => void;
}

const BADGE = 'rounded px-1.5 py-0.5 text-[11px] font-medium';

const TONES = {
  slate: 'bg-slate-700/60 text-slate-300',
  amber: 'bg-amber-500/15 text-amber-300',
  sky: 'bg-sky-500/15 text-sky-300',
} as const;

/** A small word beside a name: unused, dangling, built-in. */
export function Badge({
  tone,
  testId,
  children,
}: {
  tone: keyof typeof TONES;
  testId?: string;
  children: ReactNode;
}) {
  return (
    <span data-testid={testId} className={`${BADGE} ${TONES[tone]}`}>
      {children}
    </span>
  );
}

/** Inspect and (when allowed) Remove, labelled with the row's name. */
export function RowButtons<T>({
  item,
  name,
  actions,
  canRemove,
  size,
}: {
  item: T;
  name: string;
  actions: ResourceActions<T>;
  canRemove: boolean;
  size: 'icon' | 'touch';
}) {
  return (
    <div className="flex shrink-0 justify-end gap-1">
      <Button
        variant="ghost"
        size={size}
        aria-label={`Inspect ${name}`}
        onClick={() => actions.inspect(item)}
      >
        <Info className="h-4 w-4" aria-hidden />
      </Button>
      {canRemove && (
        <Button
          variant="ghost"
          size={size}
          aria-label={`Remove ${name}`}
          onClick={() => actions.remove(item)}
        >
          <Trash2 className="h-4 w-4" aria-hidden />
        </Button>
      )}
    </div>
  );
}

/** The first column: the name, with its badges under it. */
export function nameColumn<T>(
  header: string,
  nameOf: (item: T) => string,
  badges: (item: T) => ReactNode,
): ColumnDef<T> {
  return {
    id: 'name',
    header,
    accessorFn: nameOf,
    cell: ({ row }) => (
      <div className="flex min-w-0 flex-col gap-1">
        <span className="truncate font-medium text-white" title={nameOf(row.original)}>
          {nameOf(row.original)}
        </span>
        {badges(row.original)}
      </div>
    ),
  };
}

/** The host's name, for the fleet view only (a host's tab has one host). */
export function hostColumns<T extends { host_name: string }>(showHost: boolean): ColumnDef<T>[] {
  return showHost
    ? [{ id: 'host', header: 'Host', size: 140, accessorFn: (t) => t.host_name }]
    : [];
}

/** When the engine made it, as an age; `withTitle` adds the full date on hover. */
export function createdColumn<T>(
  createdOf: (item: T) => string | null,
  withTitle: boolean,
): ColumnDef<T> {
  return {
    id: 'created',
    header: 'Created',
    size: 110,
    accessorFn: (t) => createdOf(t) ?? '',
    cell: ({ row }) => {
      const created = createdOf(row.original);
      if (created === null) return '—';
      if (!withTitle) return formatAgo(created);
      return <span title={new Date(created).toLocaleString()}>{formatAgo(created)}</span>;
    },
  };
}

/** The containers using it, by name; sorted by how many. */
export function usersColumn<T>(
  id: string,
  header: string,
  usersOf: (item: T) => readonly { name: string }[],
): ColumnDef<T> {
  return {
    id,
    header,
    size: 200,
    accessorFn: (t) => usersOf(t).length,
    cell: ({ row }) => {
      const text = dependantsText(usersOf(row.original));
      return (
        <span className="line-clamp-2 text-slate-300" title={text}>
          {text}
        </span>
      );
    },
  };
}

/** The row buttons' column. */
export function actionsColumn<T>(
  nameOf: (item: T) => string,
  actions: ResourceActions<T>,
  canRemove: (item: T) => boolean,
): ColumnDef<T> {
  return {
    id: 'actions',
    header: '',
    size: 96,
    enableSorting: false,
    cell: ({ row }) => (
      <RowButtons
        item={row.original}
        name={nameOf(row.original)}
        actions={actions}
        canRemove={canRemove(row.original)}
        size="icon"
      />
    ),
  };
}

/** A dense, sortable table of a resource; past 100 rows only those in view are drawn. */
function ResourceTable<T>({
  data,
  columns,
  rowKey,
  rowTestId,
  initialSorting = [],
}: {
  data: T[];
  /** Memoised by the caller: new columns redraw the whole table. */
  columns: ColumnDef<T>[];
  rowKey: (item: T) => string;
  rowTestId: (item: T) => string;
  initialSorting?: SortingState;
}) {
  const [sorting, setSorting] = useState<SortingState>(initialSorting);
  // eslint-disable-next-line react-hooks/incompatible-library
  const table = useReactTable({
    data,
    columns,
    state: { sorting },
    getRowId: rowKey,
    onSortingChange: setSorting,
    getCoreRowModel: getCoreRowModel(),
    getSortedRowModel: getSortedRowModel(),
  });
  return <DataTable table={table} dense rowTestId={rowTestId} />;
}

/** How many cards a phone draws at first; more on request (a card list is not virtualised). */
const CARDS_AT_ONCE = 100;

/** A resource as cards, for a phone: the card's text beside its buttons. */
function ResourceCards<T>({
  items,
  testId,
  cardTestId,
  rowKey,
  nameOf,
  actions,
  canRemove,
  children,
}: {
  items: T[];
  testId: string;
  cardTestId: (item: T) => string;
  rowKey: (item: T) => string;
  nameOf: (item: T) => string;
  actions: ResourceActions<T>;
  canRemove: (item: T) => boolean;
  /** The card's text under its name. */
  children: (item: T) => ReactNode;
}) {
  const [shown, setShown] = useState(CARDS_AT_ONCE);
  return (
    <ul className="flex flex-col gap-2" data-testid={testId}>
      {items.slice(0, shown).map((item) => (
        <li
          key={rowKey(item)}
          data-testid={cardTestId(item)}
          className="rounded-xl border border-slate-800 bg-slate-900 p-3"
        >
          <div className="flex items-start justify-between gap-2">
            <div className="min-w-0">
              <p className="truncate font-medium text-white">{nameOf(item)}</p>
              {children(item)}
            </div>
            <RowButtons
              item={item}
              name={nameOf(item)}
              actions={actions}
              canRemove={canRemove(item)}
              size="touch"
            />
          </div>
        </li>
      ))}
      {items.length > shown && (
        <li>
          <Button
            variant="secondary"
            size="touch"
            className="w-full"
            onClick={() => setShown((n) => n + CARDS_AT_ONCE)}
          >
            Show more ({items.length - shown} left)
          </Button>
        </li>
      )}
    </ul>
  );
}

/** What makes one resource's list: its columns, its card, its search, its names. */
export interface ResourceListSpec<T> {
  /** Singular, lower case: `network`. Counts, labels and test ids are made from it. */
  noun: string;
  icon: LucideIcon;
  searchPlaceholder: string;
  /** Whether an item matches the lower-cased search (empty matches all). */
  matches: (item: T, query: string) => boolean;
  rowKey: (item: T) => string;
  /** The id in `<noun>-row-<id>` and `<noun>-card-<id>`. */
  testKey: (item: T) => string;
  nameOf: (item: T) => string;
  columns: (actions: ResourceActions<T>, can: boolean, showHost: boolean) => ColumnDef<T>[];
  /** Whether the row offers Remove, given whether the user may change this resource. */
  canRemove: (item: T, can: boolean) => boolean;
  initialSorting?: SortingState;
  /** A card's text under its name. */
  card: (item: T) => ReactNode;
}

/** A resource's list: the sortable table, or cards on a phone. */
export function ResourceList<T>({
  spec,
  phone,
  items,
  actions,
  can,
  showHost,
}: {
  spec: ResourceListSpec<T>;
  phone: boolean;
  items: T[];
  actions: ResourceActions<T>;
  can: boolean;
  showHost: boolean;
}) {
  const { noun, testKey } = spec;
  const columns = useMemo(
    () => spec.columns(actions, can, showHost),
    [spec, actions, can, showHost],
  );
  if (!phone) {
    return (
      <ResourceTable
        data={items}
        columns={columns}
        rowKey={spec.rowKey}
        rowTestId={(t) => `${noun}-row-${testKey(t)}`}
        initialSorting={spec.initialSorting ?? []}
      />
    );
  }
  return (
    <ResourceCards
      items={items}
      testId={`${noun}-cards`}
      cardTestId={(t) => `${noun}-card-${testKey(t)}`}
      rowKey={spec.rowKey}
      nameOf={spec.nameOf}
      actions={actions}
      canRemove={(t) => spec.canRemove(t, can)}
    >
      {spec.card}
    </ResourceCards>
  );
}
