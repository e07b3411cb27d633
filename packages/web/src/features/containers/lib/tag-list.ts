import { containerTagSchema } from '@berth/contracts';

export type TagListResult = { tags: string[]; error: null } | { tags: null; error: string };

/**
 * A comma-separated tag list as the bulk editor takes it (trimmed, lowercased,
 * 1-24 characters, allowed characters only, no duplicates, derived tags refused). A
 * trailing comma is forgiven; an empty entry between two tags is not.
 */
export function parseTagList(text: string): TagListResult {
  if (text.trim() === '') return { tags: null, error: 'Please enter at least one tag' };
  const pieces = text.split(',').map((t) => t.trim().toLowerCase());
  if (pieces.length > 1 && pieces[pieces.length - 1] === '') pieces.pop();
  const tags: string[] = [];
  for (const piece of pieces) {
    const parsed = containerTagSchema.safeParse(piece);
    if (!parsed.success) {
      return { tags: null, error: parsed.error.issues[0]?.message ?? 'Invalid tag' };
    }
    if (tags.includes(parsed.data)) return { tags: null, error: 'Duplicate tag' };
    tags.push(parsed.data);
  }
  return { tags, error: null };
}
