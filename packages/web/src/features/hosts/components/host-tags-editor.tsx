import type { Host } from '@berth/contracts';
import { toast } from 'sonner';
import { TagsEditor } from '@/components/tags-editor';
import { usePatchHostTags } from '../api/hosts-api';
import { parseTags } from './parse-tags';

/** Edit copies the tags; save sends what was added and removed. */
export function HostTagsEditor({ host }: { host: Host }) {
  const patch = usePatchHostTags();
  return (
    <div data-testid="host-tags">
      <TagsEditor
        label="Host tags"
        tags={host.tags}
        placeholder="prod, dev, us-west-1"
        parse={(text) => ({ tags: parseTags(text), error: null })}
        saving={patch.isPending}
        onSave={async (add, remove) => {
          try {
            await patch.mutateAsync({ id: host.id, add, remove });
            toast.success('Host tags updated successfully');
            return true;
          } catch {
            toast.error('Failed to update host tags');
            return false;
          }
        }}
      />
    </div>
  );
}
