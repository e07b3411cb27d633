import type { ReactNode } from 'react';
import { cn } from '@/lib/cn';
import { formatStamp } from '@/lib/format';

export interface LogColumn {
  label: string;
  /** Width and padding beyond the default (`px-3`; the first column `px-4`). */
  className?: string;
}

/**
 * The frame of a log read row by row (Event Log, Audit Log, shell recordings): a bordered,
 * sideways-scrolling table with an upper-case head; the rows are the caller's.
 */
export function LogTable({
  columns,
  testId,
  fixed = true,
  children,
}: {
  columns: readonly LogColumn[];
  testId: string;
  /** Fixed layout: the columns keep their widths and long cells are cut (the logs). */
  fixed?: boolean;
  children: ReactNode;
}) {
  return (
    <div className="overflow-x-auto rounded-xl border border-slate-800 bg-slate-900/40">
      <table
        className={cn('w-full text-left text-sm', fixed && 'table-fixed')}
        data-testid={testId}
      >
        <thead className="border-b border-slate-800 text-xs tracking-wide text-slate-400">
          <tr>
            {columns.map((c, i) => (
              <th
                key={c.label}
                scope="col"
                className={cn(i === 0 ? 'px-4' : 'px-3', 'py-2.5 font-medium', c.className)}
              >
                {c.label}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>{children}</tbody>
      </table>
    </div>
  );
}

/** One 35 px line of a log; a click opens it where the log allows that. */
export function LogRow({
  testId,
  onOpen,
  children,
}: {
  testId?: string;
  onOpen?: () => void;
  children: ReactNode;
}) {
  return (
    <tr
      data-testid={testId}
      onClick={onOpen}
      className={cn(
        'h-[35px] border-b border-slate-800/70 last:border-b-0 hover:bg-slate-800/40',
        onOpen !== undefined && 'cursor-pointer',
      )}
    >
      {children}
    </tr>
  );
}

/** A log line's time: short in the cell, the full local time on hover. */
export function LogTimeCell({ iso, children }: { iso: string; children?: ReactNode }) {
  return (
    <td
      className="px-4 text-xs whitespace-nowrap text-slate-400 tabular-nums"
      title={new Date(iso).toLocaleString()}
    >
      {children ?? formatStamp(iso)}
    </td>
  );
}
