/** Characters that make a spreadsheet read a cell as a formula (OWASP "CSV injection"). */
const FORMULA_START = /^[=+\-@\t\r]/;

/**
 * One CSV cell, quoted, with its quotes doubled. A text that would open as a formula
 * (it starts with `=`, `+`, `-`, `@`, a tab or a carriage return) gets a leading `'`, so a
 * spreadsheet shows it as text: event messages carry text Berth does not control.
 */
export function csvCell(value: string | null): string {
  const text = value ?? '';
  const safe = FORMULA_START.test(text) ? `'${text}` : text;
  return `"${safe.replaceAll('"', '""')}"`;
}

/** CSV text: the header (Berth's own column names, written bare), then rows of `csvCell`s. */
export function csvText(
  header: readonly string[],
  rows: readonly (readonly (string | null)[])[],
): string {
  return [header.join(','), ...rows.map((cells) => cells.map(csvCell).join(','))].join('\n');
}
