import { DERIVED_TAG_PATTERN, type Container } from '@berth/contracts';

const SHOWN = 12;

/**
 * The tags the selected containers carry, on all of them first, then on some (
 * what remove mode offers); derived tags are left out. A click hands the tag to the editor.
 */
export function SelectionTags({
  selected,
  onPick,
}: {
  selected: Container[];
  onPick: (tag: string) => void;
}) {
  const counts = new Map<string, number>();
  for (const c of selected)
    for (const t of c.tags)
      if (!DERIVED_TAG_PATTERN.test(t)) counts.set(t, (counts.get(t) ?? 0) + 1);
  if (counts.size === 0) return null;
  const tags = [...counts.entries()].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]));
  return (
    <ul aria-label="Tags on the selection" className="flex w-full flex-wrap items-center gap-1">
      {tags.slice(0, SHOWN).map(([tag, n]) => (
        <li key={tag}>
          <button
            type="button"
            onClick={() => onPick(tag)}
            title={n === selected.length ? 'On all selected containers' : 'On some of them'}
            className="rounded border border-slate-700 px-1.5 py-0.5 text-xs text-slate-300 hover:bg-slate-800"
          >
            {tag}{' '}
            <span className="text-slate-500">
              {n}/{selected.length}
            </span>
          </button>
        </li>
      ))}
      {tags.length > SHOWN && <li className="text-xs text-slate-500">+{tags.length - SHOWN}</li>}
    </ul>
  );
}
