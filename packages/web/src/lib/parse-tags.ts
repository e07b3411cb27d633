/** Comma-separated tags, trimmed, lowercased, without duplicates. */
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
