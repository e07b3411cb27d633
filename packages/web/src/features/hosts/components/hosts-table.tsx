import type { Alert, Host } from '@berth/contracts';
import {
  getCoreRowModel,
  getSortedRowModel,
  useReactTable,
  type RowSelectionState,
  type SortingState,
} from '@tanstack/react-table';
import { useMemo, useState } from 'react';
import { DataTable } from '@/components/data-table';
import { useDebouncedCallback } from '@/hooks/use-debounced-callback';
import { usePreferences, useUpdatePreferences } from '@/lib/preferences';
import { hostColumns, type HostRowActions } from './host-columns';

/** The sort preference is written 500 ms after the last change. */
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
  return <DataTable table={table} rowTestId={(h) => `host-row-${h.name}`} />;
}
