import { createTable, getCoreRowModel, type TableState } from '@tanstack/react-table';
import { describe, expect, it } from 'vitest';
import { isPinnedEnd } from './data-table-row';

interface Item {
  name: string;
}

/** A table of three columns, `actions` asking to be pinned, in the given state. */
function pinnedColumns(state: Partial<TableState>): string[] {
  const table = createTable<Item>({
    data: [{ name: 'web' }],
    columns: [
      { id: 'name', accessorKey: 'name' },
      { id: 'image', accessorKey: 'name' },
      { id: 'actions', meta: { pinnedEnd: true } },
    ],
    getCoreRowModel: getCoreRowModel(),
    state: {},
    onStateChange: () => undefined,
    renderFallbackValue: null,
  });
  table.setOptions((options) => ({ ...options, state: { ...table.initialState, ...state } }));
  return table
    .getVisibleLeafColumns()
    .filter((column) => isPinnedEnd(column))
    .map((column) => column.id);
}

describe('a column pinned to the right edge', () => {
  it('is pinned while it is the last column shown, and not once a user moves it', () => {
    expect(pinnedColumns({})).toEqual(['actions']);
    expect(pinnedColumns({ columnOrder: ['actions', 'name', 'image'] })).toEqual([]);
    // Hiding the columns after it makes it the last again.
    expect(
      pinnedColumns({
        columnOrder: ['name', 'actions', 'image'],
        columnVisibility: { image: false },
      }),
    ).toEqual(['actions']);
  });
});
