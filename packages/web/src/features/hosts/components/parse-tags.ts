/** Comma-separated tags, trimmed, lowercased, without duplicates (spec 1 §5). */
export function parseTags(text: string): string[] {
  return [
    ...new Set(
      text
        .split(',')
        .map((t) => t.trim().toLowerCase())
        .filter((t) => t !== ''),
    ),
  ];
}
