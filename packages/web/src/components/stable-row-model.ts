import { createRow, memo, type Row, type RowModel, type Table } from '@tanstack/react-table';

/** The per-record caches a Row keeps (TanStack Table's core and grouping features). */
type RowCaches = {
  _valuesCache: object;
  _uniqueValuesCache: object;
  _groupingValuesCache?: object;
};

/**
 * `getCoreRowModel` that keeps the Row of every record it saw before, by record or by row id:
 * a record replaced by a changed one (a live message) and a record at another index (a search
 * or filter, and clearing it) keep their Row. TanStack's own builds every Row anew whenever
 * the data array changes, each with a few dozen closures and its cells: a live message that
 * changed 300 of 1,000 containers rebuilt 1,000 rows, and clearing a search as many
 * (bench/containers). A kept Row gets its index and, with a new record, empty value caches,
 * which is all a Row holds of its record: its cells read values through it, and features key
 * state by row id. Flat data only (no sub-rows), and column accessors must not read the row
 * index (TanStack hands them the index a Row was built at).
 */
export function getStableCoreRowModel<T extends object>(): (table: Table<T>) => () => RowModel<T> {
  return (table) => {
    // By record: an unchanged record needs no id worked out again either.
    const byRecord = new WeakMap<T, Row<T>>();
    // By id, also the rows a filter leaves out, for when it is cleared; pruned (below) once
    // ids gone for good (removed containers) outnumber the rows.
    let byId = new Map<string, Row<T>>();
    let largest = 0;
    return memo(
      () => [table.options.data],
      (data) => {
        const model: RowModel<T> = { rows: [], flatRows: [], rowsById: {} };
        for (let i = 0; i < data.length; i++) {
          const original = data[i] as T;
          let row = byRecord.get(original);
          if (row === undefined || row.original !== original) {
            const id = table._getRowId(original, i);
            row = byId.get(id);
            if (row === undefined) byId.set(id, (row = createRow(table, id, original, i, 0)));
            else reuse(row, original);
            byRecord.set(original, row);
          }
          row.index = i;
          model.rows.push(row);
          model.flatRows.push(row);
          model.rowsById[row.id] = row;
        }
        largest = Math.max(largest, data.length);
        if (byId.size > 2 * largest) byId = new Map(Object.entries(model.rowsById));
        return model;
      },
      { key: false, debug: () => false },
    );
  };
}

function reuse<T>(row: Row<T>, original: T): void {
  row.original = original;
  const caches = row as unknown as RowCaches;
  caches._valuesCache = {};
  caches._uniqueValuesCache = {};
  if (caches._groupingValuesCache !== undefined) caches._groupingValuesCache = {};
}
