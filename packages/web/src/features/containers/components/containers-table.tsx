import type { Container, PreferencesPatch } from '@berth/contracts';
import {
  getSortedRowModel,
  useReactTable,
  type ColumnOrderState,
  type RowSelectionState,
  type SortingState,
  type Updater,
  type VisibilityState,
} from '@tanstack/react-table';
import { useCallback, useMemo, useRef, useState } from 'react';
import { DataTable } from '@/components/data-table';
import { getStableCoreRowModel } from '@/components/stable-row-model';
import { useDebouncedCallback } from '@/hooks/use-debounced-callback';
import { containerKeyOf } from '@berth/contracts';
import { usePreferences, useUpdatePreferences } from '@/lib/preferences';
import { useLiveContainer } from '../lib/live-container';
import { ContainerCards } from './container-cards';
import { containerColumns, type RowActions } from './container-columns';
import { ColumnsCustomizer } from './columns-customizer';

/** Sort, visibility and order are written 500 ms after the last change. */
const SAVE_DELAY_MS = 500;

const LABELS: Record<string, string> = {
  status: 'Status',
  name: 'Name',
  policy: 'Policy',
  alerts: 'Alerts',
  updates: 'Updates',
  host: 'Host',
  ports: 'Ports',
  uptime: 'Uptime',
  cpu: 'CPU %',
  ram: 'RAM',
  actions: 'Actions',
};
const DEFAULT_ORDER = Object.keys(LABELS);

/** The saved order when it names known columns, completed with any it lacks. */
function orderFrom(saved: readonly string[] | undefined): string[] {
  const known = (saved ?? []).filter((id) => DEFAULT_ORDER.includes(id));
  return [...known, ...DEFAULT_ORDER.filter((id) => !known.includes(id))];
}

const stableCoreRowModel = getStableCoreRowModel<Container>();

const apply = <T,>(updater: Updater<T>, current: T): T =>
  typeof updater === 'function' ? (updater as (old: T) => T)(current) : updater;

export function ContainersTable({
  containers,
  actions,
  selection,
  onSelectionChange,
  sorting,
  onSortingChange,
  toolbar,
  cards,
}: {
  /** Stats and status may be older than the cache's: rows read those live. */
  containers: Container[];
  actions: RowActions;
  selection: RowSelectionState;
  onSelectionChange: (next: RowSelectionState) => void;
  /** Held by the view, which renews the rows on every stats change when sorted by stats. */
  sorting: SortingState;
  onSortingChange: (next: SortingState) => void;
  toolbar: React.ReactNode;
  /** On a phone: cards in the table's order, with checkboxes while `selecting`. */
  cards?: { selecting: boolean; onLongPress: (key: string) => void } | undefined;
}) {
  const prefs = usePreferences().data;
  const update = useUpdatePreferences();
  const [visibility, setVisibility] = useState<VisibilityState>(
    prefs?.container_table_column_visibility ?? {},
  );
  const [order, setOrder] = useState<string[]>(orderFrom(prefs?.container_table_column_order));
  // Changes within the delay are merged, so a sort, a hidden column and a move all land.
  const pending = useRef<PreferencesPatch>({});
  const flush = useDebouncedCallback(() => {
    update.mutate(pending.current);
    pending.current = {};
  }, SAVE_DELAY_MS);
  const save = useCallback(
    (patch: PreferencesPatch) => {
      pending.current = { ...pending.current, ...patch };
      flush();
    },
    [flush],
  );
  const columns = useMemo(() => containerColumns(actions), [actions]);
  // The same array while the order is, so TanStack Table keeps its column caches.
  const columnOrder: ColumnOrderState = useMemo(() => ['select', ...order], [order]);

  // TanStack Table hands back functions by design; the React Compiler lint cannot know that.
  // eslint-disable-next-line react-hooks/incompatible-library
  const table = useReactTable({
    data: containers,
    columns,
    state: { sorting, columnVisibility: visibility, columnOrder, rowSelection: selection },
    getRowId: containerKeyOf,
    enableRowSelection: true,
    onRowSelectionChange: (u) => onSelectionChange(apply(u, selection)),
    onSortingChange: (u) => {
      const next = apply(u, sorting);
      onSortingChange(next);
      save({ container_table_sort: next });
    },
    getCoreRowModel: stableCoreRowModel,
    getSortedRowModel: getSortedRowModel(),
    // Without pages or expanded rows there is nothing to reset, but TanStack Table would
    // reset both after every new data array: a state update and a second render of the
    // table after every live message (bench/containers).
    autoResetAll: false,
  });

  // The customizer is drawn again only when its columns change, not on every live message
  // that gives the table new rows (it holds a menu and a sortable list).
  const customizer = useMemo(() => {
    const setColumnVisible = (id: string, visible: boolean) => {
      const next = { ...visibility, [id]: visible };
      setVisibility(next);
      save({ container_table_column_visibility: next });
    };
    const setColumnOrder = (ids: string[]) => {
      setOrder(ids);
      save({ container_table_column_order: ids });
    };
    const reset = () => {
      setVisibility({});
      setOrder(DEFAULT_ORDER);
      save({ container_table_column_visibility: {}, container_table_column_order: [] });
    };
    return (
      <ColumnsCustomizer
        columns={order.map((id) => ({
          id,
          label: LABELS[id] ?? id,
          visible: visibility[id] !== false,
        }))}
        onToggle={setColumnVisible}
        onReorder={setColumnOrder}
        onReset={reset}
      />
    );
  }, [order, visibility, save]);

  if (cards !== undefined)
    return (
      <>
        <div className="mb-3">{toolbar}</div>
        <ContainerCards
          containers={table.getRowModel().rows.map((row) => row.original)}
          actions={actions}
          selecting={cards.selecting}
          onLongPress={cards.onLongPress}
          selection={selection}
          onSelectionChange={onSelectionChange}
        />
      </>
    );
  return (
    <>
      <div className="mb-3 flex flex-wrap items-center gap-3">
        {toolbar}
        <div className="ml-auto">{customizer}</div>
      </div>
      <DataTable
        table={table}
        rowTestId={(c) => `container-row-${c.name}`}
        dense
        useLiveRecord={useLiveContainer}
      />
    </>
  );
}
