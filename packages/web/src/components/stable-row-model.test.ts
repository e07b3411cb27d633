import { createColumnHelper, createTable, type TableOptionsResolved } from '@tanstack/react-table';
import { describe, expect, it } from 'vitest';
import { getStableCoreRowModel } from './stable-row-model';

interface Item {
  key: string;
  cpu: number;
}
const col = createColumnHelper<Item>();
const columns = [col.accessor('cpu', { id: 'cpu' })];

function tableOf(data: Item[]) {
  const options: TableOptionsResolved<Item> = {
    data,
    columns,
    getRowId: (item) => item.key,
    getCoreRowModel: getStableCoreRowModel<Item>(),
    state: {},
    onStateChange: () => undefined,
    renderFallbackValue: null,
  };
  const table = createTable(options);
  return {
    rows: () => table.getCoreRowModel().rows,
    setData: (next: Item[]) => table.setOptions((prev) => ({ ...prev, data: next })),
  };
}

describe('getStableCoreRowModel', () => {
  const a = { key: 'a', cpu: 1 };
  const b = { key: 'b', cpu: 2 };
  const c = { key: 'c', cpu: 3 };

  it('keeps the Row of every unchanged record', () => {
    const t = tableOf([a, b, c]);
    const before = t.rows();
    t.setData([a, b, c].slice());
    expect(t.rows()).not.toBe(before);
    t.rows().forEach((row, i) => expect(row).toBe(before[i]));
  });

  it('keeps the Row of a record changed in place, with the new record and value', () => {
    const t = tableOf([a, b, c]);
    const [, rowB] = t.rows();
    expect(rowB?.getValue('cpu')).toBe(2);
    const b2 = { key: 'b', cpu: 50 };
    t.setData([a, b2, c]);
    const row = t.rows()[1];
    expect(row).toBe(rowB);
    expect(row?.original).toBe(b2);
    expect(row?.getValue('cpu')).toBe(50);
    expect(row?.getAllCells()[0]?.getValue()).toBe(50);
  });

  it('keeps the Row of a record that moved, with its new index; builds one for a new record', () => {
    const t = tableOf([a, b, c]);
    const [rowA, rowB, rowC] = t.rows();
    const d = { key: 'd', cpu: 4 };
    t.setData([b, a, d]);
    const rows = t.rows();
    expect(rows.map((r) => [r.id, r.index, r.getValue('cpu')])).toEqual([
      ['b', 0, 2],
      ['a', 1, 1],
      ['d', 2, 4],
    ]);
    expect(rows[0]).toBe(rowB);
    expect(rows[1]).toBe(rowA);
    expect(rows[2]).not.toBe(rowC);
    // A search that keeps one, then cleared: the same Rows at their first places.
    t.setData([c]);
    expect(t.rows()).toHaveLength(1);
    t.setData([b, a, d, c]);
    expect(t.rows().map((r) => r.index)).toEqual([0, 1, 2, 3]);
    expect(t.rows()[0]).toBe(rowB);
  });
});
