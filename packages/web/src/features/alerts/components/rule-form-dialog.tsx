import type { AlertRule } from '@berth/contracts';
import { useState } from 'react';
import { ConfirmDialog } from '@/components/confirm-dialog';
import { Button } from '@/components/ui/button';
import { Dialog } from '@/components/ui/dialog';
import { FormError } from '@/components/ui/form-error';
import { errorText } from '@/lib/api-client';
import { useRuleMutations } from '../api/rules-api';
import { checkDraft, draftOf, newDraft, type RuleDraft } from '../lib/rule-draft';
import { RuleFields } from './rule-form-fields';
import { RuleSummary } from './rule-summary';

/** The create/edit rule modal with its live Rule Summary. */
export function RuleFormDialog({ rule, onClose }: { rule: AlertRule | null; onClose: () => void }) {
  const [draft, setDraft] = useState<RuleDraft>(() => (rule === null ? newDraft() : draftOf(rule)));
  const [error, setError] = useState<string | null>(null);
  const [confirmNoChannel, setConfirmNoChannel] = useState(false);
  const { save } = useRuleMutations();
  // An edit answers the banner: it spoke of the draft as it was.
  const change: typeof setDraft = (next) => {
    setError(null);
    setDraft(next);
  };
  const set = (patch: Partial<RuleDraft>) => change((d) => ({ ...d, ...patch }));

  const submit = (skipChannelCheck: boolean) => {
    const checked = checkDraft(draft);
    if (checked.error !== null) {
      setError(checked.error);
      return;
    }
    if (!skipChannelCheck && draft.channels.length === 0) {
      setConfirmNoChannel(true);
      return;
    }
    setError(null);
    save.mutate(
      { id: rule?.id ?? null, body: checked.body },
      {
        onSuccess: onClose,
        onError: (err) => setError(errorText(err, 'Failed to save rule')),
      },
    );
  };

  return (
    <Dialog
      open
      onOpenChange={(open) => !open && onClose()}
      title={rule === null ? 'Create Alert Rule' : 'Edit Alert Rule'}
      size="5xl"
      className="flex max-h-[calc(100vh-2rem)] flex-col"
    >
      <form
        className="flex min-h-0 flex-1 flex-col"
        noValidate
        onSubmit={(e) => {
          e.preventDefault();
          submit(false);
        }}
      >
        {error !== null && (
          <div className="mb-4" data-testid="rule-form-error">
            <FormError message={error} />
          </div>
        )}
        <div className="min-h-0 flex-1 overflow-y-auto pr-1">
          <div className="grid gap-6 lg:grid-cols-[1fr_18rem]">
            <RuleFields draft={draft} set={set} setDraft={change} />
            <RuleSummary draft={draft} />
          </div>
        </div>
        <div className="mt-4 flex justify-end gap-2 border-t border-slate-800 pt-4">
          <Button variant="secondary" onClick={onClose}>
            Cancel
          </Button>
          <Button type="submit" disabled={save.isPending}>
            {rule === null ? 'Create Rule' : 'Save Changes'}
          </Button>
        </div>
      </form>
      <ConfirmDialog
        open={confirmNoChannel}
        title="No Notification Channels Selected"
        description="This rule has no notification channels. Alerts will still appear in Berth, but no one will be notified."
        cancelLabel="Go Back"
        confirmLabel={rule === null ? 'Create Anyway' : 'Save Anyway'}
        onCancel={() => setConfirmNoChannel(false)}
        onConfirm={() => {
          setConfirmNoChannel(false);
          submit(true);
        }}
      />
    </Dialog>
  );
}
