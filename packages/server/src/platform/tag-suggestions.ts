/**
 * The tags containing `q` (trimmed and lowercased), most used first, then by name: what the
 * tag inputs of hosts and containers suggest. `tagLists` holds each item's tags.
 */
export function suggestTags(
  tagLists: Iterable<readonly string[]>,
  q: string,
  limit: number,
): string[] {
  const counts = new Map<string, number>();
  for (const tags of tagLists) {
    for (const tag of tags) counts.set(tag, (counts.get(tag) ?? 0) + 1);
  }
  const needle = q.trim().toLowerCase();
  return [...counts.entries()]
    .filter(([tag]) => tag.includes(needle))
    .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
    .slice(0, limit)
    .map(([tag]) => tag);
}
