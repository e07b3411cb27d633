import type { BerthEvent } from '@berth/contracts';
import { csvText } from './csv';

/**
 * Events as CSV, one column per field the log shows (views that span hosts add Host,
 * a single container's view leaves it out).
 */
export function eventsCsv(events: readonly BerthEvent[], { host }: { host: boolean }): string {
  const header = [
    'Timestamp',
    'Severity',
    'Category',
    'Type',
    'Title',
    'Message',
    ...(host ? ['Host'] : []),
    'Container',
    'Old State',
    'New State',
  ];
  const rows = events.map((e) => [
    e.timestamp,
    e.severity,
    e.category,
    e.event_type,
    e.title,
    e.message,
    ...(host ? [e.host_name] : []),
    e.container_name,
    e.old_state,
    e.new_state,
  ]);
  return csvText(header, rows);
}

/** Downloads events as `{prefix}-{YYYY-MM-DD}.csv` (named with today's date). */
export function downloadEventsCsv(
  events: readonly BerthEvent[],
  prefix: string,
  options: { host: boolean },
): void {
  const blob = new Blob([eventsCsv(events, options)], { type: 'text/csv' });
  const link = document.createElement('a');
  link.href = URL.createObjectURL(blob);
  link.download = `${prefix}-${new Date().toISOString().slice(0, 10)}.csv`;
  link.click();
  URL.revokeObjectURL(link.href);
}
