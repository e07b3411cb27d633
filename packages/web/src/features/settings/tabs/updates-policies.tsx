import { UPDATE_POLICY_CATEGORIES, type UpdatePolicyCategory } from '@berth/contracts';
import { useQuery } from '@tanstack/react-query';
import { Plus, X } from 'lucide-react';
import { useState } from 'react';
import { toast } from 'sonner';
import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import { Switch } from '@/components/ui/switch';
import { errorText } from '@/lib/api-client';
import {
  updatePoliciesQueryOptions,
  useAddPattern,
  useRemovePattern,
  useToggleCategory,
} from '../api/updates-settings-api';
import { SettingRow, SettingsSection } from '../components/setting-row';

const CATEGORY_LABEL: Record<UpdatePolicyCategory, string> = {
  databases: 'Databases',
  proxies: 'Proxies',
  monitoring: 'Monitoring',
  critical: 'Critical infrastructure',
  custom: 'Custom patterns',
};

/** The update policy categories and custom patterns. */
export function PoliciesEditor() {
  const policies = useQuery(updatePoliciesQueryOptions());
  const toggle = useToggleCategory();
  const add = useAddPattern();
  const remove = useRemovePattern();
  const [pattern, setPattern] = useState('');

  if (policies.isError)
    return (
      <SettingsSection title="Update validation policies">
        <p className="py-3 text-sm text-red-300">
          Failed to load update policies. Please try again.
        </p>
      </SettingsSection>
    );
  const cats = policies.data?.categories;

  const addPattern = () => {
    const value = pattern.trim();
    if (value === '') {
      toast.error('Please enter a pattern');
      return;
    }
    add.mutate(value, {
      onSuccess: () => setPattern(''),
      onError: (err) =>
        toast.error(
          errorText(err).includes('already exists')
            ? `Pattern '${value}' already exists`
            : 'Failed to add custom pattern',
        ),
    });
  };

  return (
    <SettingsSection title="Update validation policies">
      <p className="py-2 text-xs text-slate-400">
        Containers whose name or image matches an enabled pattern ask for confirmation before an
        update and are never auto-updated. A container's own policy (its Updates tab) comes first.
      </p>
      {UPDATE_POLICY_CATEGORIES.filter((c) => c !== 'custom').map((category) => {
        const items = cats?.[category] ?? [];
        const enabled = items.length > 0 && items.every((i) => i.enabled);
        return (
          <SettingRow
            key={category}
            label={CATEGORY_LABEL[category]}
            description={
              <span data-testid={`policy-${category}`}>
                {items.map((i) => i.pattern).join(', ')}
              </span>
            }
          >
            <Switch
              label={CATEGORY_LABEL[category]}
              checked={enabled}
              onCheckedChange={(on) =>
                toggle.mutate(
                  { category, enabled: on },
                  { onError: () => toast.error('Failed to update category') },
                )
              }
            >
              <span className="sr-only">{CATEGORY_LABEL[category]}</span>
            </Switch>
          </SettingRow>
        );
      })}
      <div className="py-4">
        <p className="text-sm font-medium text-slate-100">{CATEGORY_LABEL.custom}</p>
        <ul className="my-2 flex flex-wrap gap-2" data-testid="custom-patterns">
          {(cats?.custom ?? []).map((p) => (
            <li
              key={p.id}
              className="inline-flex items-center gap-1 rounded bg-slate-800 px-2 py-0.5 text-xs"
            >
              {p.pattern}
              <button
                type="button"
                aria-label={`Remove ${p.pattern}`}
                onClick={() =>
                  remove.mutate(p.id, {
                    onError: () => toast.error('Failed to remove custom pattern'),
                  })
                }
              >
                <X className="h-3 w-3" />
              </button>
            </li>
          ))}
        </ul>
        <div className="flex gap-2">
          <Input
            aria-label="Custom pattern"
            placeholder="e.g. my-app"
            value={pattern}
            className="max-w-xs"
            onChange={(e) => setPattern(e.target.value)}
            onKeyDown={(e) => e.key === 'Enter' && addPattern()}
          />
          <Button size="sm" onClick={addPattern} disabled={add.isPending}>
            <Plus className="h-4 w-4" /> Add
          </Button>
        </div>
      </div>
    </SettingsSection>
  );
}
