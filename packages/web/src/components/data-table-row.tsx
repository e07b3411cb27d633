import {
  flexRender,
  type Cell,
  type CellContext,
  type Column,
  type Row,
  type RowData,
} from '@tanstack/react-table';
import { memo } from 'react';
import { cn } from '@/lib/cn';

declare module '@tanstack/react-table' {
  // The declaration merges with TanStack's, so it keeps its type parameters.
  // eslint-disable-next-line @typescript-eslint/no-unused-vars
  interface ColumnMeta<TData extends RowData, TValue> {
    /**
     * The record's fields the cell draws from. A row whose record changed draws again only the
     * cells that read a changed field: a live message changes a running container's stats,
     * and its name, tags, policy and action buttons stayed as they were (bench/containers).
     * Without it, the cell draws again whenever its record changes.
     */
    reads?: readonly (keyof TData & string)[];
    /**
     * The column stays at the table's right edge while the rest scrolls sideways: a row's
     * actions stay in reach in a window too narrow for every column.
     */
    pinnedEnd?: boolean;
    /**
     * On a tablet (768-1023 px) the column stays at the table's left edge while the rest
     * scrolls sideways: a row's name stays in sight beside the columns scrolled to.
     */
    pinnedStart?: boolean;
  }
}

/** A column asking to be pinned is, while it is the last one shown (columns can be moved). */
export const isPinnedEnd = <T,>(column: Column<T>): boolean =>
  column.columnDef.meta?.pinnedEnd === true && column.getIsLastColumn();

/** A pinned column's cells, header included: at the right edge, shadowed where rows pass. */
export const PINNED_END = 'sticky right-0 shadow-[-6px_0_6px_-6px_rgb(0_0_0/0.7)]';
/** Opaque, since rows scroll beneath: the page's slate-950, and the row's hover tint over it. */
const PINNED_END_BODY =
  'bg-slate-950 group-hover:bg-[color-mix(in_oklab,var(--color-slate-900)_60%,var(--color-slate-950))]';

export const isPinnedStart = <T,>(column: Column<T>): boolean =>
  column.columnDef.meta?.pinnedStart === true;

/** A tablet's pinned name column, header included: at the left edge, shadowed on its right. */
export const PINNED_START =
  'md:max-lg:sticky md:max-lg:left-0 md:max-lg:z-[1] md:max-lg:shadow-[6px_0_6px_-6px_rgb(0_0_0/0.7)]';
const PINNED_START_BODY =
  'md:max-lg:bg-slate-950 md:max-lg:group-hover:bg-[color-mix(in_oklab,var(--color-slate-900)_60%,var(--color-slate-950))]';

export type Measured = { index: number; measure: (el: Element | null) => void };
/** A hook: the newest version of a row's record (see `DataTable`'s `useLiveRecord`). */
export type LiveRecordHook<T> = (record: T) => T;

/**
 * The cell's context with `record` in place of the record the table was given: what the cell
 * reads (`row.original`, `getValue`) comes from it, and the rest (selection, ids) from the row.
 */
function contextWith<T>(cell: Cell<T, unknown>, record: T): CellContext<T, unknown> {
  const context = cell.getContext();
  if (record === context.row.original) return context;
  const row = Object.create(context.row, { original: { value: record } }) as Row<T>;
  const getValue = (): unknown => cell.column.accessorFn?.(record, context.row.index);
  const fallback: unknown = context.table.options.renderFallbackValue;
  type Read = CellContext<T, unknown>['getValue'];
  return {
    ...context,
    row,
    getValue: getValue as Read,
    renderValue: (() => getValue() ?? fallback) as Read,
  };
}

interface BodyCellProps<T> {
  cell: Cell<T, unknown>;
  /** The newest record of the row (`useLiveRecord`). */
  record: T;
  selected: boolean;
  className: string;
}

/** Whether the cell would draw the same from record `b` as from `a` (its column's `reads`). */
function drawsTheSame<T>(cell: Cell<T, unknown>, a: T, b: T): boolean {
  if (a === b) return true;
  const reads = cell.column.columnDef.meta?.reads;
  return reads !== undefined && reads.every((field) => Object.is(a[field], b[field]));
}

/**
 * One cell, drawn again when a field it reads, the row's selection or the column's
 * definition changed (a column definition closes over the table's actions).
 */
const BodyCell = memo(
  function BodyCell<T>({ cell, record, className }: BodyCellProps<T>) {
    return (
      <td className={className}>
        {flexRender(cell.column.columnDef.cell, contextWith(cell, record))}
      </td>
    );
  },
  (a, b) =>
    a.cell.column.columnDef === b.cell.column.columnDef &&
    a.selected === b.selected &&
    a.className === b.className &&
    drawsTheSame(b.cell, a.record, b.record),
) as <T>(props: BodyCellProps<T>) => React.ReactNode;

interface BodyRowProps<T> {
  row: Row<T>;
  /** The record: the same object while it did not change (docs/decisions/007). */
  original: T;
  selected: boolean;
  /** Column definitions and visible column ids: a row draws again when either changes. */
  columns: unknown;
  visible: string;
  testId: string;
  cellPad: string;
  dense: boolean;
  measured: Measured | undefined;
  useLiveRecord: LiveRecordHook<T>;
}

/**
 * One body row, drawn again only when its record, its selection or the columns changed.
 * TanStack Table builds new Row objects whenever the data array changes, so the row itself
 * is no guide: a live message that changed the stats of 300 of 1,000 containers would
 * otherwise redraw every row in view (bench/containers).
 */
export const BodyRow = memo(
  function BodyRow<T>({
    row,
    original,
    selected,
    testId,
    cellPad,
    dense,
    measured,
    useLiveRecord,
  }: BodyRowProps<T>) {
    const record = useLiveRecord(original);
    return (
      <tr
        data-testid={testId}
        {...(measured === undefined
          ? {}
          : {
              ref: measured.measure,
              'data-index': measured.index,
              'aria-rowindex': measured.index + 2,
            })}
        className={cn(
          'group hover:bg-slate-900/60',
          dense &&
            measured === undefined &&
            '[contain-intrinsic-size:auto_56px] [content-visibility:auto]',
        )}
      >
        {row.getVisibleCells().map((cell) => (
          <BodyCell
            key={cell.id}
            cell={cell}
            record={record}
            selected={selected}
            className={cn(
              cellPad,
              'align-top text-slate-300',
              isPinnedEnd(cell.column) && [PINNED_END, PINNED_END_BODY],
              isPinnedStart(cell.column) && [PINNED_START, PINNED_START_BODY],
            )}
          />
        ))}
      </tr>
    );
  },
  (a, b) =>
    a.original === b.original &&
    a.selected === b.selected &&
    a.columns === b.columns &&
    a.visible === b.visible &&
    a.testId === b.testId &&
    a.cellPad === b.cellPad &&
    a.dense === b.dense &&
    a.measured?.index === b.measured?.index &&
    a.measured?.measure === b.measured?.measure &&
    a.useLiveRecord === b.useLiveRecord,
) as <T>(props: BodyRowProps<T>) => React.ReactNode;
