import { flexRender, type ColumnDef, type Table } from '@tanstack/react-table';
import { ArrowDown, ArrowUp } from 'lucide-react';
import { cn } from '@/lib/cn';

/** The selection column every selectable table starts with. */
export function selectColumn<T extends { name: string }>(plural: string): ColumnDef<T> {
  return {
    id: 'select',
    enableHiding: false,
    enableSorting: false,
    header: ({ table }) => (
      <input
        type="checkbox"
        aria-label={`Select all ${plural}`}
        checked={table.getIsAllRowsSelected()}
        ref={(el) => {
          if (el) el.indeterminate = table.getIsSomeRowsSelected();
        }}
        onChange={table.getToggleAllRowsSelectedHandler()}
      />
    ),
    cell: ({ row }) => (
      <input
        type="checkbox"
        aria-label={`Select ${row.original.name}`}
        checked={row.getIsSelected()}
        onChange={row.getToggleSelectedHandler()}
      />
    ),
  };
}

/** A TanStack table drawn our way: sortable headers as buttons, one row per record. */
export function DataTable<T>({
  table,
  rowTestId,
  dense = false,
}: {
  table: Table<T>;
  rowTestId: (row: T) => string;
  /** Long lists: tighter cells, and rows off screen skip layout (content-visibility). */
  dense?: boolean;
}) {
  const cellPad = dense ? 'px-3 py-2' : 'px-4 py-3';
  return (
    <div className="overflow-x-auto rounded-xl border border-slate-800">
      <table className="w-full text-left text-sm">
        <thead className="bg-slate-900 text-xs tracking-wide text-slate-400 uppercase">
          {table.getHeaderGroups().map((group) => (
            <tr key={group.id}>
              {group.headers.map((header) => (
                <th
                  key={header.id}
                  data-column={header.id}
                  className={cn(cellPad, 'font-medium whitespace-nowrap')}
                >
                  {header.column.getCanSort() ? (
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
              data-testid={rowTestId(row.original)}
              className={cn(
                'hover:bg-slate-900/60',
                dense && '[contain-intrinsic-size:auto_56px] [content-visibility:auto]',
              )}
            >
              {row.getVisibleCells().map((cell) => (
                <td key={cell.id} className={cn(cellPad, 'align-top text-slate-300')}>
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
