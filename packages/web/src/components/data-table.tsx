import { flexRender, type ColumnDef, type Row, type Table } from '@tanstack/react-table';
import { useVirtualizer } from '@tanstack/react-virtual';
import { ArrowDown, ArrowUp } from 'lucide-react';
import { useCallback, useLayoutEffect, useRef, useState, type RefObject } from 'react';
import { cn } from '@/lib/cn';
import {
  BodyRow,
  isPinnedEnd,
  isPinnedStart,
  PINNED_END,
  PINNED_START,
  type LiveRecordHook,
  type Measured,
} from './data-table-row';

/**
 * Dense tables longer than this render only the rows in view (plus overscan): a thousand
 * containers would otherwise re-render on every live update (bench/containers).
 */
const VIRTUAL_FROM = 100;
const ROW_ESTIMATE_PX = 53;
/**
 * Rows drawn beyond each edge of the view. A search draws the table's rows afresh, measuring
 * each (rows wrap): with 12 a side, a search drew ~40 rows for ~15 in view. Six still keep
 * ahead of fast scrolling (bench/containers scrolls 60 px a frame).
 */
const OVERSCAN_ROWS = 6;
/** In a fixed layout, the least a column without a set size (it takes the rest) gets. */
const FLEX_COLUMN_MIN_PX = 200;

type RowRenderer<T> = (row: Row<T>, measured?: Measured) => React.ReactNode;
const asGiven = <T,>(record: T): T => record;

/** The selection column every selectable table starts with. */
export function selectColumn<T extends { name: string }>(plural: string): ColumnDef<T> {
  return {
    id: 'select',
    size: 36,
    meta: { reads: ['name'] },
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
  useLiveRecord = asGiven,
}: {
  table: Table<T>;
  rowTestId: (row: T) => string;
  /**
   * For a table given records that may be older than what is shown (a list renewed only
   * when rows come, go or move): a hook each row calls with its record for the newest one,
   * and draws again when that changes. The same hook for the table's whole life.
   */
  useLiveRecord?: LiveRecordHook<T>;
  /**
   * Long lists: tighter cells, rows off screen skip layout, long tables render only the rows
   * in view, and columns keep their set sizes (a fixed layout), so they do not jump as
   * different rows scroll into view.
   */
  dense?: boolean;
}) {
  const cellPad = dense ? 'px-2 py-2' : 'px-4 py-3';
  const rows = table.getRowModel().rows;
  const bodyRef = useRef<HTMLTableSectionElement>(null);
  const virtual = dense && rows.length > VIRTUAL_FROM;
  const columns = table.options.columns;
  const visible = table
    .getVisibleLeafColumns()
    .map((c) => c.id)
    .join(',');
  const renderRow: RowRenderer<T> = (row, measured) => (
    <BodyRow
      key={row.id}
      row={row}
      original={row.original}
      selected={row.getIsSelected()}
      columns={columns}
      visible={visible}
      testId={rowTestId(row.original)}
      cellPad={cellPad}
      dense={dense}
      measured={measured}
      useLiveRecord={useLiveRecord}
    />
  );
  return (
    <div className="overflow-x-auto rounded-xl border border-slate-800">
      <table
        className={cn('w-full text-left text-sm', dense && 'table-fixed')}
        style={
          dense
            ? {
                minWidth: table
                  .getVisibleLeafColumns()
                  .reduce((sum, c) => sum + (c.columnDef.size ?? FLEX_COLUMN_MIN_PX), 0),
              }
            : undefined
        }
        {...(virtual ? { 'aria-rowcount': rows.length + 1 } : {})}
      >
        <thead className="bg-slate-900 text-xs tracking-wide text-slate-400 uppercase">
          {table.getHeaderGroups().map((group) => (
            <tr key={group.id}>
              {group.headers.map((header) => (
                <th
                  key={header.id}
                  data-column={header.id}
                  className={cn(
                    cellPad,
                    'font-medium whitespace-nowrap',
                    isPinnedEnd(header.column) && [PINNED_END, 'bg-slate-900'],
                    isPinnedStart(header.column) && [PINNED_START, 'md:max-lg:bg-slate-900'],
                  )}
                  style={
                    dense && header.column.columnDef.size !== undefined
                      ? { width: header.column.columnDef.size }
                      : undefined
                  }
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
        <tbody ref={bodyRef} className="divide-y divide-slate-800">
          {virtual ? (
            <VirtualRows rows={rows} bodyRef={bodyRef} renderRow={renderRow} />
          ) : (
            rows.map((row) => renderRow(row))
          )}
        </tbody>
      </table>
    </div>
  );
}

/**
 * The nearest ancestor that scrolls vertically (the page's main, or a dialog's body). The
 * table's own wrapper computes overflow-y auto too (it scrolls sideways), but never holds
 * more than it shows, so content taller than the box is what counts.
 */
export function scrollParentOf(el: HTMLElement): HTMLElement {
  for (let node = el.parentElement; node !== null; node = node.parentElement) {
    const { overflowY } = getComputedStyle(node);
    const scrolls = overflowY === 'auto' || overflowY === 'scroll';
    if (scrolls && node.scrollHeight > node.clientHeight) return node;
  }
  return document.documentElement;
}

const estimateSize = () => ROW_ESTIMATE_PX;

/** The rows' ids, as the same array while they are the same ids in the same order. */
function useRowIds<T>(rows: Row<T>[]): string[] {
  const [ids, setIds] = useState<string[]>(() => rows.map((row) => row.id));
  // Derived during render (React's pattern for state that follows props): no second commit.
  if (ids.length !== rows.length || rows.some((row, i) => row.id !== ids[i])) {
    const next = rows.map((row) => row.id);
    setIds(next);
    return next;
  }
  return ids;
}

/** The rows in view of a long table, with spacer rows standing in for the others. */
function VirtualRows<T>({
  rows,
  bodyRef,
  renderRow,
}: {
  rows: Row<T>[];
  bodyRef: RefObject<HTMLTableSectionElement | null>;
  renderRow: RowRenderer<T>;
}) {
  const [scroller, setScroller] = useState<HTMLElement | null>(null);
  const [margin, setMargin] = useState(0);
  const [, lookAgain] = useState(0);
  // Measured after every render (a wrapping toolbar above moves the table); equal values
  // end the chain, as React skips a state update that changes nothing.
  // eslint-disable-next-line react-hooks/exhaustive-deps
  useLayoutEffect(() => {
    const body = bodyRef.current;
    if (body === null) {
      // A table mounted long at once: its body's ref is attached after this effect runs, and
      // nothing else may draw it again (no live list behind it), so look again next frame.
      const frame = requestAnimationFrame(() => lookAgain((n) => n + 1));
      return () => cancelAnimationFrame(frame);
    }
    // Looked for again only until found: walking the ancestors' computed styles on every
    // render (every live message) cost more than the rows that changed.
    const found = scroller !== null && scroller !== document.documentElement;
    const parent = found && scroller.contains(body) ? scroller : scrollParentOf(body);
    setScroller(parent);
    setMargin(
      Math.round(
        body.getBoundingClientRect().top - parent.getBoundingClientRect().top + parent.scrollTop,
      ),
    );
    return undefined;
  });
  // The virtualizer measures every row again when its key function changes, so that function
  // stays the same while the row ids (order, filter) do not change.
  const ids = useRowIds(rows);
  const getItemKey = useCallback((index: number) => ids[index] ?? index, [ids]);
  // TanStack Virtual hands back functions by design; the React Compiler lint cannot know that.
  // eslint-disable-next-line react-hooks/incompatible-library
  const virtualizer = useVirtualizer({
    count: rows.length,
    getScrollElement: () => scroller,
    estimateSize,
    overscan: OVERSCAN_ROWS,
    scrollMargin: margin,
    getItemKey,
  });
  const items = virtualizer.getVirtualItems();
  const first = items[0];
  const last = items.at(-1);
  const top = first === undefined ? 0 : first.start - margin;
  const bottom = last === undefined ? 0 : virtualizer.getTotalSize() - (last.end - margin);
  return (
    <>
      {top > 0 && <tr aria-hidden style={{ height: top }} />}
      {items.map((item) => {
        const row = rows[item.index];
        return row === undefined
          ? null
          : renderRow(row, { index: item.index, measure: virtualizer.measureElement });
      })}
      {bottom > 0 && <tr aria-hidden style={{ height: bottom }} />}
    </>
  );
}
