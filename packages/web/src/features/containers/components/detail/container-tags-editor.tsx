import { DERIVED_TAG_PATTERN, type Container } from '@berth/contracts';
import { X } from 'lucide-react';
import { useState } from 'react';
import { toast } from 'sonner';
import { LockedTag } from '@/components/tags-editor';
import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import { usePhone } from '@/hooks/use-breakpoint';
import {
  useContainerTagSuggestions,
  usePatchContainerTags,
} from '../../api/container-settings-api';

/** The container editor keeps at most 20 tags. */
const MAX_TAGS = 20;
const MAX_LENGTH = 24;

/** Lowercase, trimmed, spaces to hyphens, other characters dropped, starting with a letter or digit. */
export function normaliseTag(text: string): string {
  return text
    .trim()
    .toLowerCase()
    .replace(/\s+/g, '-')
    .replace(/[^a-z0-9._:-]/g, '')
    .replace(/^[^a-z0-9]+/, '')
    .slice(0, MAX_LENGTH);
}

/** Tags of one container: derived ones locked, user ones editable with Save and Cancel. */
export function ContainerTagsEditor({ container }: { container: Container }) {
  const patch = usePatchContainerTags();
  // 44 px controls on a phone.
  const size = usePhone() ? 'touch' : 'sm';
  const derived = container.tags.filter((t) => DERIVED_TAG_PATTERN.test(t));
  const own = container.tags.filter((t) => !DERIVED_TAG_PATTERN.test(t));
  const [draft, setDraft] = useState<string[] | null>(null);
  const [input, setInput] = useState('');
  const [note, setNote] = useState<string | null>(null);

  const suggestions = useContainerTagSuggestions(input, draft !== null && input.trim() !== '');
  const offered = (suggestions.data ?? []).filter(
    (t) => !DERIVED_TAG_PATTERN.test(t) && !(draft ?? own).includes(t),
  );

  const add = (text: string = input) => {
    const tag = normaliseTag(text);
    setInput('');
    if (tag === '' || draft === null || draft.includes(tag)) return;
    if (draft.length >= MAX_TAGS) {
      setNote('Max tags reached');
      return;
    }
    setDraft([...draft, tag]);
  };
  const save = () => {
    if (draft === null) return;
    const addTags = draft.filter((t) => !own.includes(t));
    const removeTags = own.filter((t) => !draft.includes(t));
    setDraft(null);
    if (addTags.length === 0 && removeTags.length === 0) {
      toast.info('No changes to save');
      return;
    }
    patch.mutate({ container, value: { add: addTags, remove: removeTags } });
  };

  const chips = draft ?? own;
  return (
    <div data-testid="container-tags">
      <div className="flex flex-wrap items-center gap-1">
        {derived.map((t) => (
          <LockedTag key={t} tag={t} />
        ))}
        {chips.map((t) => (
          <span
            key={t}
            className="inline-flex items-center gap-1 rounded bg-slate-800 px-1.5 py-0.5 text-xs text-slate-200"
          >
            {t}
            {draft !== null && (
              <button
                type="button"
                aria-label={`Remove ${t}`}
                onClick={() => setDraft(draft.filter((x) => x !== t))}
              >
                <X className="h-3 w-3" />
              </button>
            )}
          </span>
        ))}
        {draft === null && container.tags.length === 0 && (
          <span className="text-sm text-slate-500">No tags</span>
        )}
        {draft === null && (
          <Button size={size} variant="ghost" onClick={() => setDraft(own)}>
            Edit
          </Button>
        )}
      </div>
      {draft !== null && (
        <div className="mt-2 flex flex-wrap items-center gap-2">
          <Input
            aria-label="New tag"
            size={size}
            fullWidth={false}
            className="w-48"
            value={input}
            placeholder="Add a tag and press Enter"
            onChange={(e) => setInput(e.target.value)}
            onKeyDown={(e) => {
              if (e.key === 'Enter') {
                e.preventDefault();
                add(input);
              }
            }}
          />
          <Button size={size} onClick={save}>
            Save
          </Button>
          <Button size={size} variant="ghost" onClick={() => setDraft(null)}>
            Cancel
          </Button>
          {note !== null && <span className="text-xs text-amber-300">{note}</span>}
          {offered.length > 0 && (
            <ul aria-label="Tag suggestions" className="flex w-full flex-wrap gap-1">
              {offered.map((t) => (
                <li key={t}>
                  <button
                    type="button"
                    className="rounded border border-slate-700 px-1.5 py-0.5 text-xs text-slate-300 hover:bg-slate-800"
                    onClick={() => add(t)}
                  >
                    {t}
                  </button>
                </li>
              ))}
            </ul>
          )}
        </div>
      )}
    </div>
  );
}
