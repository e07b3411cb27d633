import { createRow, memo, type Row, type RowModel, type Table } from '@tanstack/react-table';

/**
 * `getCoreRowModel` that keeps the Row of every record that did not change. TanStack's own
 * builds every Row anew whenever the data array changes, each with a few dozen closures: a
 * live message that changed the stats of 300 of 1,000 containers rebuilt 1,000 rows, most of
 * the page's main-thread time and garbage per message (bench/containers). Flat data only
 * (no sub-rows); a row is kept while its record is the same object at the same index.
 */
export function getStableCoreRowModel<T extends object>(): (table: Table<T>) => () => RowModel<T> {
  return (table) => {
    // By record: an unchanged record needs no id worked out again either.
    let before = new WeakMap<T, Row<T>>();
    return memo(
      () => [table.options.data],
      (data) => {
        const model: RowModel<T> = { rows: [], flatRows: [], rowsById: {} };
        const kept = new WeakMap<T, Row<T>>();
        for (let i = 0; i < data.length; i++) {
          const original = data[i] as T;
          let row = before.get(original);
          if (row === undefined || row.index !== i)
            row = createRow(table, table._getRowId(original, i), original, i, 0);
          kept.set(original, row);
          model.rows.push(row);
          model.flatRows.push(row);
          model.rowsById[row.id] = row;
        }
        before = kept;
        return model;
      },
      { key: false, debug: () => false },
    );
  };
}
