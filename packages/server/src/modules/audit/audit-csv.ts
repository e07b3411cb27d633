import type { AuditEntry } from '@berth/contracts';

export const CSV_COLUMNS = [
  'timestamp',
  'actor',
  'api_key',
  'source',
  'action',
  'host_name',
  'host_id',
  'container_name',
  'container_id',
  'target',
  'address',
  'user_agent',
  'status',
  'ok',
  'error',
  'duration_ms',
] as const satisfies readonly (keyof AuditEntry)[];

/** A spreadsheet would run a cell starting with one of these as a formula. */
const FORMULA_START = /^[=+\-@\t\r]/;

/** One CSV cell: a would-be formula gets a leading quote, then RFC 4180 quoting. */
export function csvCell(value: string | number | boolean | null): string {
  if (value === null) return '';
  let text = String(value);
  if (FORMULA_START.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

export const csvHeader = (): string => `${CSV_COLUMNS.join(',')}\r\n`;

export const csvRows = (entries: AuditEntry[]): string =>
  entries.map((e) => `${CSV_COLUMNS.map((c) => csvCell(e[c])).join(',')}\r\n`).join('');
