import type { Host } from '@berth/contracts';
import { useState } from 'react';
import { toast } from 'sonner';
import { TagChips } from '@/components/host-status';
import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import { usePatchHostTags } from '../api/hosts-api';
import { parseTags } from './parse-tags';

/** Spec 1 §4: edit copies the tags; save sends what was added and removed. */
export function HostTagsEditor({ host }: { host: Host }) {
  const patch = usePatchHostTags();
  const [draft, setDraft] = useState<string | null>(null);
  if (draft === null) {
    return (
      <div className="flex items-start justify-between gap-2" data-testid="host-tags">
        {host.tags.length > 0 ? (
          <TagChips tags={host.tags} max={host.tags.length} />
        ) : (
          <span className="text-sm text-slate-500">No tags</span>
        )}
        <Button size="sm" variant="secondary" onClick={() => setDraft(host.tags.join(', '))}>
          Edit
        </Button>
      </div>
    );
  }
  const save = async () => {
    const next = parseTags(draft);
    const add = next.filter((t) => !host.tags.includes(t));
    const remove = host.tags.filter((t) => !next.includes(t));
    if (add.length === 0 && remove.length === 0) {
      toast.info('No changes to save');
      setDraft(null);
      return;
    }
    try {
      await patch.mutateAsync({ id: host.id, add, remove });
      toast.success('Host tags updated successfully');
      setDraft(null);
    } catch {
      toast.error('Failed to update host tags');
    }
  };
  return (
    <div className="space-y-2">
      <Input
        aria-label="Host tags"
        value={draft}
        placeholder="prod, dev, us-west-1"
        onChange={(e) => setDraft(e.target.value)}
      />
      <div className="flex gap-2">
        <Button size="sm" onClick={() => void save()} disabled={patch.isPending}>
          Save Tags
        </Button>
        <Button size="sm" variant="ghost" onClick={() => setDraft(null)}>
          Cancel
        </Button>
      </div>
    </div>
  );
}
