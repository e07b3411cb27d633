/**
 * Labels and driver options as a form takes them: one `key=value` a line. Blank lines are
 * skipped; a line without `=` is a key with an empty value. The server checks them again.
 */
export function parseKeyValues(text: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const raw of text.split('\n')) {
    const line = raw.trim();
    if (line === '') continue;
    const at = line.indexOf('=');
    if (at < 0) out[line] = '';
    else out[line.slice(0, at).trim()] = line.slice(at + 1).trim();
  }
  return out;
}

/** The containers using a resource, by name, or a dash. */
export const dependantsText = (users: readonly { name: string }[]): string =>
  users.length === 0 ? '—' : users.map((u) => u.name).join(', ');
