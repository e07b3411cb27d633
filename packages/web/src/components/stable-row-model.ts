import { createRow, memo, type Row, type RowModel, type Table } from '@tanstack/react-table';

/** The per-record caches a Row keeps (TanStack Table's core and grouping features). */
type RowCaches = { _valuesCache: object; _uniqueValuesCache: object; _groupingValuesCache?: object };

/**
 * `getCoreRowModel` that keeps the Row of every record that did not change, and the Row of a
 * record that changed in place (same id, same index) with its new record. TanStack's own
 * builds every Row anew whenever the data array changes, each with a few dozen closures: a
 * live message that changed the stats of 300 of 1,000 containers rebuilt 1,000 rows, most of
 * the page's main-thread time and garbage per message (bench/containers). Flat data only
 * (no sub-rows). A kept Row gets the new record and empty value caches, which is all a Row
 * holds of its record: its cells read values through it, and features key state by row id.
 */
export function getStableCoreRowModel<T extends object>(): (table: Table<T>) => () => RowModel<T> {
  return (table) => {
    // By record: an unchanged record needs no id worked out again either.
    let byRecord = new WeakMap<T, Row<T>>();
    let byId = new Map<string, Row<T>>();
    return memo(
      () => [table.options.data],
      (data) => {
        const model: RowModel<T> = { rows: [], flatRows: [], rowsById: {} };
        const keptByRecord = new WeakMap<T, Row<T>>();
        const keptById = new Map<string, Row<T>>();
        for (let i = 0; i < data.length; i++) {
          const original = data[i] as T;
          let row = byRecord.get(original);
          if (row === undefined || row.index !== i) {
            const id = table._getRowId(original, i);
            row = byId.get(id);
            if (row !== undefined && row.index === i) reuse(row, original);
            else row = createRow(table, id, original, i, 0);
          }
          keptByRecord.set(original, row);
          keptById.set(row.id, row);
          model.rows.push(row);
          model.flatRows.push(row);
          model.rowsById[row.id] = row;
        }
        byRecord = keptByRecord;
        byId = keptById;
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
