import type { Host } from '@berth/contracts';
import { useState } from 'react';
import { toast } from 'sonner';
import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import { usePatchHostTags } from '../api/hosts-api';
import { parseTags } from './parse-tags';

/**
 * Adds or removes tags on the selected hosts: one PATCH per host, then one of the three
 * result toasts: all succeeded, some failed, or all failed.
 */
export function BulkTagBar({ hosts, onDone }: { hosts: Host[]; onDone: () => void }) {
  const patch = usePatchHostTags();
  const [text, setText] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const run = async (mode: 'add' | 'remove') => {
    const tags = parseTags(text);
    if (tags.length === 0) {
      setError('Please enter at least one tag');
      return;
    }
    setError(null);
    setBusy(true);
    const results = await Promise.allSettled(
      hosts.map((h) =>
        patch.mutateAsync({
          id: h.id,
          add: mode === 'add' ? tags : [],
          remove: mode === 'remove' ? tags : [],
        }),
      ),
    );
    setBusy(false);
    const failed = results.filter((r) => r.status === 'rejected').length;
    const ok = results.length - failed;
    if (failed === 0) {
      toast.success(`Successfully ${mode === 'add' ? 'added' : 'removed'} tags for ${ok} host(s)`);
      setText('');
      onDone();
    } else if (ok > 0) toast.warning(`Updated ${ok} host(s), ${failed} failed`);
    else toast.error('Failed to update tags for all hosts');
  };

  return (
    <div
      className="mb-3 flex flex-wrap items-center gap-3 rounded-lg border border-sky-900 bg-sky-950/40 px-4 py-2"
      data-testid="bulk-tag-bar"
    >
      <span className="text-sm text-slate-200">{hosts.length} selected</span>
      <Input
        aria-label="Tags for selected hosts"
        placeholder="prod, dev, us-west-1"
        size="sm"
        className="max-w-xs"
        value={text}
        onChange={(e) => setText(e.target.value)}
      />
      <Button size="sm" disabled={busy} onClick={() => void run('add')}>
        Add Tags
      </Button>
      <Button size="sm" variant="secondary" disabled={busy} onClick={() => void run('remove')}>
        Remove Tags
      </Button>
      <Button size="sm" variant="ghost" onClick={onDone}>
        Clear selection
      </Button>
      {error !== null && <span className="text-xs text-red-300">{error}</span>}
    </div>
  );
}
