import type { Container, FloatingTagMode, UpdatePolicyValue, UpdateStatus } from '@berth/contracts';
import { toast } from 'sonner';
import { Select } from '@/components/ui/select';
import { Switch } from '@/components/ui/switch';
import { errorText } from '@/lib/api-client';
import { useSavePolicy, useSaveUpdateConfig } from '../../api/updates-api';

const MODES: { value: FloatingTagMode; label: string; hint: string }[] = [
  { value: 'exact', label: 'Respect Tag', hint: 'Only a new image under the same tag' },
  { value: 'patch', label: 'Patch', hint: 'Tracks x.y.* only' },
  { value: 'minor', label: 'Minor', hint: 'Within the same major version (recommended)' },
  { value: 'latest', label: 'Latest', hint: 'Any newer version' },
];
const POLICY_LABEL: Record<UpdatePolicyValue, string> = {
  allow: 'Allow',
  warn: 'Warn',
  block: 'Block',
};

/** Update Settings: the Auto-update switch, Tracking Mode and Update Policy. */
export function UpdateSettings({
  container: c,
  status,
}: {
  container: Container;
  status: UpdateStatus;
}) {
  const save = useSaveUpdateConfig(c);
  const savePolicy = useSavePolicy(c);
  return (
    <section className="rounded-lg border border-slate-800 p-4" data-testid="update-settings">
      <h3 className="mb-3 font-semibold text-slate-200">Update Settings</h3>
      <Switch
        label="Auto-update"
        checked={status.auto_update_enabled}
        onCheckedChange={(on) =>
          save.mutate(
            { auto_update_enabled: on },
            {
              onSuccess: () => toast.success(`Auto-update ${on ? 'enabled' : 'disabled'}`),
              onError: (err) =>
                toast.error('Failed to update configuration', { description: errorText(err) }),
            },
          )
        }
      >
        <span>Auto-update</span>
      </Switch>
      <fieldset className="mt-4">
        <legend className="mb-1 text-slate-300">Tracking Mode</legend>
        <div className="grid gap-1" role="radiogroup" aria-label="Tracking Mode">
          {MODES.map((m) => (
            <label key={m.value} className="flex items-center gap-2">
              <input
                type="radio"
                name={`tracking-${c.id}`}
                value={m.value}
                checked={status.floating_tag_mode === m.value}
                onChange={() =>
                  save.mutate(
                    { floating_tag_mode: m.value },
                    {
                      onSuccess: () => toast.success('Tracking mode updated'),
                      onError: (err) =>
                        toast.error('Failed to update tracking mode', {
                          description: errorText(err),
                        }),
                    },
                  )
                }
              />
              <span className="text-slate-100">{m.label}</span>
              <span className="text-xs text-slate-500">{m.hint}</span>
            </label>
          ))}
        </div>
      </fieldset>
      <label className="mt-4 flex items-center gap-3">
        <span className="text-slate-300">Update Policy</span>
        <Select
          aria-label="Update Policy"
          value={status.update_policy ?? ''}
          onChange={(e) => {
            const policy = e.target.value === '' ? null : (e.target.value as UpdatePolicyValue);
            savePolicy.mutate(policy, {
              onSuccess: () =>
                toast.success(
                  `Update policy set to ${policy === null ? 'Auto-detect' : POLICY_LABEL[policy]}`,
                ),
              onError: (err) =>
                toast.error('Failed to update policy', { description: errorText(err) }),
            });
          }}
        >
          <option value="">Use Global Settings</option>
          <option value="allow">Allow</option>
          <option value="warn">Warn</option>
          <option value="block">Block</option>
        </Select>
      </label>
    </section>
  );
}
