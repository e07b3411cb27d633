import type { ReactNode } from 'react';
import { cn } from '@/lib/cn';

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
