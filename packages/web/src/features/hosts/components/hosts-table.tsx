import type { Alert, Host } from '@berth/contracts';
import {
  flexRender,
  getCoreRowModel,
  getSortedRowModel,
  useReactTable,
  type RowSelectionState,
  type SortingState,
} from '@tanstack/react-table';
import { ArrowDown, ArrowUp } from 'lucide-react';
import { useMemo, useState } from 'react';
import { useDebouncedCallback } from '@/hooks/use-debounced-callback';
import { usePreferences, useUpdatePreferences } from '@/lib/preferences';
import { hostColumns, type HostRowActions } from './host-columns';

/** Spec 1 §9: the sort preference is written 500 ms after the last change. */
const SORT_SAVE_DELAY_MS = 500;

/** The hosts table; the sort is kept in host_table_sort, the selection drives the bulk bar. */
export function HostsTable({
  hosts,
  actions,
  alertsOf,
  selection,
  onSelectionChange,
}: {
  hosts: Host[];
  actions: HostRowActions;
  alertsOf: (hostId: string) => Alert[];
  selection: RowSelectionState;
  onSelectionChange: (next: RowSelectionState) => void;
}) {
  const savedSort = usePreferences().data?.host_table_sort;
  const updatePrefs = useUpdatePreferences();
  const [sorting, setSorting] = useState<SortingState>(savedSort ?? []);
  const saveSort = useDebouncedCallback(
    (next: SortingState) => updatePrefs.mutate({ host_table_sort: next }),
    SORT_SAVE_DELAY_MS,
  );
  const columns = useMemo(() => hostColumns(actions, alertsOf), [actions, alertsOf]);
  // TanStack Table hands back functions by design; the React Compiler lint cannot know that.
  // eslint-disable-next-line react-hooks/incompatible-library
  const table = useReactTable({
    data: hosts,
    columns,
    state: { sorting, rowSelection: selection },
    onSortingChange: (updater) => {
      const next = typeof updater === 'function' ? updater(sorting) : updater;
      setSorting(next);
      saveSort(next);
    },
    enableRowSelection: true,
    onRowSelectionChange: (updater) =>
      onSelectionChange(typeof updater === 'function' ? updater(selection) : updater),
    getCoreRowModel: getCoreRowModel(),
    getSortedRowModel: getSortedRowModel(),
    getRowId: (h) => h.id,
  });
  return (
    <div className="overflow-x-auto rounded-xl border border-slate-800">
      <table className="w-full text-left text-sm">
        <thead className="bg-slate-900 text-xs tracking-wide text-slate-400 uppercase">
          {table.getHeaderGroups().map((group) => (
            <tr key={group.id}>
              {group.headers.map((header) => (
                <th key={header.id} className="px-4 py-3 font-medium">
                  {header.column.getCanSort() &&
                  header.id !== 'actions' &&
                  header.id !== 'select' ? (
                    <button
                      type="button"
                      onClick={header.column.getToggleSortingHandler()}
                      className="inline-flex items-center gap-1 uppercase hover:text-white"
                    >
                      {flexRender(header.column.columnDef.header, header.getContext())}
                      {header.column.getIsSorted() === 'asc' && <ArrowUp className="h-3 w-3" />}
                      {header.column.getIsSorted() === 'desc' && <ArrowDown className="h-3 w-3" />}
                    </button>
                  ) : (
                    flexRender(header.column.columnDef.header, header.getContext())
                  )}
                </th>
              ))}
            </tr>
          ))}
        </thead>
        <tbody className="divide-y divide-slate-800">
          {table.getRowModel().rows.map((row) => (
            <tr
              key={row.id}
              data-testid={`host-row-${row.original.name}`}
              className="hover:bg-slate-900/60"
            >
              {row.getVisibleCells().map((cell) => (
                <td key={cell.id} className="px-4 py-3 align-top text-slate-300">
                  {flexRender(cell.column.columnDef.cell, cell.getContext())}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
