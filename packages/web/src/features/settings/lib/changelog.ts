export interface ChangelogEntry {
  version: string;
  date: string | null;
  /** Markdown of the entry, without its heading. */
  body: string;
}

/**
 * The entries of a Keep-a-Changelog style file: `## [1.2.0] - 2025-01-31` or `## 1.2.0`
 * headings, each followed by its text.
 */
export function parseChangelog(text: string): ChangelogEntry[] {
  const entries: ChangelogEntry[] = [];
  const heading = /^##\s+\[?v?([0-9][^\]\s]*)\]?(?:\s+-\s+(\S+))?\s*$/;
  let current: ChangelogEntry | null = null;
  for (const line of text.split(/\r?\n/)) {
    const m = heading.exec(line);
    if (m !== null) {
      if (current !== null) entries.push(current);
      current = { version: m[1] ?? '', date: m[2] ?? null, body: '' };
    } else if (current !== null) {
      if (line.startsWith('# ') || /^\[[^\]]+\]:\s/.test(line)) continue;
      current.body += `${line}\n`;
    }
  }
  if (current !== null) entries.push(current);
  return entries.map((e) => ({ ...e, body: e.body.trim() }));
}

/** One block of an entry: a `###` heading or a list of `-` items (continuation lines joined). */
export type ChangelogBlock =
  | { kind: 'heading'; text: string }
  | { kind: 'list'; items: string[] }
  | { kind: 'text'; text: string };

export function changelogBlocks(body: string): ChangelogBlock[] {
  const blocks: ChangelogBlock[] = [];
  for (const raw of body.split('\n')) {
    const line = raw.trimEnd();
    const last = blocks.at(-1);
    if (line.trim() === '') continue;
    if (line.startsWith('### ')) blocks.push({ kind: 'heading', text: line.slice(4).trim() });
    else if (/^\s*[-*]\s+/.test(line)) {
      const item = line.replace(/^\s*[-*]\s+/, '');
      if (last?.kind === 'list') last.items.push(item);
      else blocks.push({ kind: 'list', items: [item] });
    } else if (last?.kind === 'list' && /^\s+/.test(raw)) {
      last.items.push(`${last.items.pop() ?? ''} ${line.trim()}`);
    } else if (last?.kind === 'text') last.text += ` ${line.trim()}`;
    else blocks.push({ kind: 'text', text: line.trim() });
  }
  return blocks;
}
