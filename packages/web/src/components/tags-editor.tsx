import { Lock } from 'lucide-react';
import { useState } from 'react';
import { toast } from 'sonner';
import { TagChips } from '@/components/host-status';
import { Button } from '@/components/ui/button';
import { usePhone } from '@/hooks/use-breakpoint';
import { Input } from '@/components/ui/input';

/** A derived tag (compose:, swarm:): shown, never edited. */
export function LockedTag({ tag }: { tag: string }) {
  return (
    <span className="inline-flex items-center gap-1 rounded bg-slate-800 px-1.5 py-0.5 text-xs text-slate-400">
      <Lock className="h-3 w-3" aria-label="Derived tag" /> {tag}
    </span>
  );
}

export type ParsedTags = { tags: string[]; error: null } | { tags: null; error: string };

/**
 * The drawer and host tag editor: view mode, or a comma-separated
 * input with Save Tags and Cancel; saving sends what was added and what was removed.
 * Locked tags (derived ones) are shown but never edited.
 */
export function TagsEditor({
  label,
  tags,
  locked = [],
  placeholder,
  parse,
  saving,
  onSave,
}: {
  label: string;
  tags: string[];
  locked?: string[];
  placeholder: string;
  parse: (text: string) => ParsedTags;
  saving: boolean;
  /** Resolves true when saved, so the editor closes. */
  onSave: (add: string[], remove: string[]) => Promise<boolean>;
}) {
  const [draft, setDraft] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  // 44 px buttons on a phone.
  const size = usePhone() ? 'touch' : 'sm';
  if (draft === null) {
    return (
      <div className="flex items-start justify-between gap-2" data-testid="tags-editor">
        <div className="flex flex-wrap items-center gap-1">
          {locked.map((t) => (
            <LockedTag key={t} tag={t} />
          ))}
          {tags.length > 0 && <TagChips tags={tags} max={tags.length} />}
          {tags.length === 0 && locked.length === 0 && (
            <span className="text-sm text-slate-500">No tags</span>
          )}
        </div>
        <Button size={size} variant="secondary" onClick={() => setDraft(tags.join(', '))}>
          Edit
        </Button>
      </div>
    );
  }
  const save = async () => {
    // An emptied input removes every tag: that is a valid edit, not an empty tag.
    const parsed: ParsedTags = draft.trim() === '' ? { tags: [], error: null } : parse(draft);
    if (parsed.tags === null) {
      setError(parsed.error);
      return;
    }
    const add = parsed.tags.filter((t) => !tags.includes(t));
    const remove = tags.filter((t) => !parsed.tags.includes(t));
    if (add.length === 0 && remove.length === 0) {
      toast.info('No changes to save');
      setDraft(null);
      return;
    }
    if (await onSave(add, remove)) setDraft(null);
  };
  return (
    <div className="space-y-2">
      <Input
        aria-label={label}
        aria-invalid={error !== null}
        value={draft}
        placeholder={placeholder}
        onChange={(e) => {
          setDraft(e.target.value);
          setError(null);
        }}
      />
      {error !== null && (
        <p role="alert" className="text-xs text-red-300">
          {error}
        </p>
      )}
      <div className="flex gap-2">
        <Button size={size} onClick={() => void save()} disabled={saving}>
          Save Tags
        </Button>
        <Button size={size} variant="ghost" onClick={() => setDraft(null)}>
          Cancel
        </Button>
      </div>
    </div>
  );
}
