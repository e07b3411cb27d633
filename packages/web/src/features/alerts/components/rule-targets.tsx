import { useQuery } from '@tanstack/react-query';
import { Label } from '@/components/ui/label';
import { MultiSelect } from '@/components/ui/multi-select';
import { Select } from '@/components/ui/select';
import { cn } from '@/lib/cn';
import { containersQueryOptions, hostsQueryOptions } from '@/lib/queries';
import { channelsQueryOptions, type ChannelChoice } from '../api/rules-api';
import type { RuleDraft } from '../lib/rule-draft';
import { IncludeAll, Section, type DraftPatch } from './rule-form-parts';

// Who a rule watches (hosts or containers) and whom it tells (notification channels).

export function HostSelection({ draft: d, set }: { draft: RuleDraft; set: DraftPatch }) {
  const hosts = useQuery(hostsQueryOptions()).data ?? [];
  const tags = [...new Set(hosts.flatMap((h) => h.tags))].sort();
  const byTags = d.tags.length > 0;
  return (
    <Section title="Hosts">
      <div className="flex flex-wrap items-center gap-3">
        <MultiSelect
          label="Host tags"
          options={tags.map((t) => ({ value: t, label: t }))}
          selected={d.tags}
          onChange={(next) => set({ tags: next })}
          searchLabel="Search tags"
        />
        <IncludeAll
          label="All hosts"
          checked={!byTags && d.include_all}
          disabled={byTags}
          onChange={(include_all) => set({ include_all })}
        />
        <fieldset disabled={byTags || d.include_all} className="disabled:opacity-50">
          <MultiSelect
            label="Hosts"
            options={hosts.map((h) => ({ value: h.id, label: h.name }))}
            selected={d.include}
            onChange={(next) => set({ include: next })}
            searchLabel="Search hosts"
          />
        </fieldset>
      </div>
      {byTags && (
        <p className="mt-2 text-xs text-slate-500">
          Tags are selected: individual hosts are ignored.
        </p>
      )}
    </Section>
  );
}

export function ContainerSelection({ draft: d, set }: { draft: RuleDraft; set: DraftPatch }) {
  const containers = useQuery(containersQueryOptions()).data ?? [];
  const tags = [...new Set(containers.flatMap((c) => c.tags))].sort();
  const names = [...new Set(containers.map((c) => c.name))].sort();
  const byTags = d.tags.length > 0;
  const runAll = d.should_run === null;
  const mode = d.should_run === null ? 'all' : d.should_run ? 'should_run' : 'on_demand';
  return (
    <Section title="Containers">
      <div className="grid gap-3">
        <div className="flex flex-wrap items-center gap-3">
          <div className="flex items-center gap-2">
            <Label htmlFor="rule-run-mode" inline>
              Run mode
            </Label>
            <Select
              id="rule-run-mode"
              value={mode}
              onChange={(e) =>
                set({
                  should_run: e.target.value === 'all' ? null : e.target.value === 'should_run',
                })
              }
            >
              <option value="all">All</option>
              <option value="should_run">Should run</option>
              <option value="on_demand">On demand</option>
            </Select>
          </div>
          <MultiSelect
            label="Container tags"
            options={tags.map((t) => ({ value: t, label: t }))}
            selected={d.tags}
            onChange={(next) => set({ tags: next })}
            searchLabel="Search tags"
          />
        </div>
        {runAll && (
          <div className="flex flex-wrap items-center gap-3">
            <IncludeAll
              label="All containers"
              checked={!byTags && d.include_all}
              disabled={byTags}
              onChange={(include_all) => set({ include_all })}
            />
            <fieldset disabled={byTags || d.include_all} className="disabled:opacity-50">
              <MultiSelect
                label="Container names"
                options={names.map((n) => ({ value: n, label: n }))}
                selected={d.include}
                onChange={(next) => set({ include: next })}
                searchLabel="Search containers"
              />
            </fieldset>
          </div>
        )}
        <p className="text-xs text-slate-500">
          {byTags
            ? 'Tags are selected: individual containers are ignored.'
            : runAll
              ? 'Containers are matched by name on their host, so a recreated container keeps its rule.'
              : 'Container names apply only in run mode All.'}
        </p>
      </div>
    </Section>
  );
}

export function ChannelPicker({ draft: d, set }: { draft: RuleDraft; set: DraftPatch }) {
  const query = useQuery(channelsQueryOptions());
  const channels: ChannelChoice[] = query.data ?? [];
  const toggle = (id: number, checked: boolean) =>
    set({ channels: checked ? [...d.channels, id] : d.channels.filter((c) => c !== id) });
  return (
    <Section title="Notification Channels">
      {channels.length === 0 ? (
        <p className="text-sm text-slate-500" data-testid="rule-no-channels">
          {query.isPending ? 'Loading channels…' : 'No notification channels configured'}
        </p>
      ) : (
        <ul className="grid gap-2 sm:grid-cols-2">
          {channels.map((c) => (
            <li key={c.id}>
              <label
                className={cn(
                  'flex items-center gap-2 text-sm text-slate-200',
                  !c.enabled && 'cursor-not-allowed opacity-50',
                )}
                title={c.enabled ? undefined : 'This channel is disabled'}
              >
                <input
                  type="checkbox"
                  disabled={!c.enabled}
                  checked={d.channels.includes(c.id)}
                  onChange={(e) => toggle(c.id, e.target.checked)}
                />
                {c.name}
                <span className="text-xs text-slate-500">{c.type}</span>
                {!c.enabled && <span className="text-xs text-slate-500">(disabled)</span>}
              </label>
            </li>
          ))}
        </ul>
      )}
    </Section>
  );
}
