import {
  ALERT_RULE_KIND_INFO,
  isMetricKind,
  isUpdateKind,
  type AlertRule,
  type AlertScope,
} from '@berth/contracts';
import { useQuery } from '@tanstack/react-query';
import { useState, type ReactNode } from 'react';
import { ConfirmDialog } from '@/components/confirm-dialog';
import { Button } from '@/components/ui/button';
import { Dialog } from '@/components/ui/dialog';
import { FormError } from '@/components/ui/form-error';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { MultiSelect } from '@/components/ui/multi-select';
import { Select } from '@/components/ui/select';
import { Switch } from '@/components/ui/switch';
import { errorText } from '@/lib/api-client';
import { cn } from '@/lib/cn';
import { containersQueryOptions, hostsQueryOptions } from '@/lib/queries';
import {
  channelsQueryOptions,
  diskAvailabilityQueryOptions,
  useRuleMutations,
  type ChannelChoice,
} from '../api/rules-api';
import {
  KIND_LABEL,
  METRIC_LABEL,
  checkDraft,
  draftOf,
  kindGroups,
  newDraft,
  withKind,
  withScope,
  type RuleDraft,
} from '../lib/rule-draft';

const SEVERITIES = ['critical', 'error', 'warning', 'info'] as const;
const OPERATORS = ['>=', '>', '<=', '<'] as const;

/** The create/edit rule modal (spec 3 §2, §4, §5) with its live Rule Summary. */
export function RuleFormDialog({ rule, onClose }: { rule: AlertRule | null; onClose: () => void }) {
  const [draft, setDraft] = useState<RuleDraft>(() => (rule === null ? newDraft() : draftOf(rule)));
  const [error, setError] = useState<string | null>(null);
  const [confirmNoChannel, setConfirmNoChannel] = useState(false);
  const { save } = useRuleMutations();
  const set = (patch: Partial<RuleDraft>) => setDraft((d) => ({ ...d, ...patch }));

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
      className="flex max-h-[calc(100vh-2rem)] w-[calc(100vw-2rem)] max-w-5xl flex-col"
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
            <RuleFields draft={draft} set={set} setDraft={setDraft} />
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

function Section({ title, children }: { title: string; children: ReactNode }) {
  return (
    <fieldset className="rounded-lg border border-slate-800 px-4 pt-2 pb-4">
      <legend className="px-1 text-xs font-semibold tracking-wide text-slate-400 uppercase">
        {title}
      </legend>
      {children}
    </fieldset>
  );
}

function NumberField({
  id,
  label,
  value,
  onChange,
  min,
  max,
  step = 1,
  hint,
}: {
  id: string;
  label: string;
  value: string;
  onChange: (value: string) => void;
  min?: number;
  max?: number;
  step?: number;
  hint?: string;
}) {
  return (
    <div>
      <Label htmlFor={id}>{label}</Label>
      <Input
        id={id}
        type="number"
        inputMode="decimal"
        min={min}
        max={max}
        step={step}
        value={value}
        onChange={(e) => onChange(e.target.value)}
      />
      {hint !== undefined && <p className="mt-1 text-xs text-slate-500">{hint}</p>}
    </div>
  );
}

function RuleFields({
  draft: d,
  set,
  setDraft,
}: {
  draft: RuleDraft;
  set: (patch: Partial<RuleDraft>) => void;
  setDraft: (update: (d: RuleDraft) => RuleDraft) => void;
}) {
  const metric = isMetricKind(d.kind);
  const timed = !isUpdateKind(d.kind);
  const info = ALERT_RULE_KIND_INFO[d.kind];
  return (
    <div className="space-y-4">
      <Section title="Rule">
        <div className="grid gap-3 sm:grid-cols-2">
          <div className="sm:col-span-2">
            <Label htmlFor="rule-name">Name *</Label>
            <Input
              id="rule-name"
              value={d.name}
              maxLength={200}
              onChange={(e) => set({ name: e.target.value })}
            />
          </div>
          <div className="sm:col-span-2">
            <Label htmlFor="rule-description">Description</Label>
            <Input
              id="rule-description"
              value={d.description}
              maxLength={1000}
              onChange={(e) => set({ description: e.target.value })}
            />
          </div>
          <div>
            <Label htmlFor="rule-scope">Scope *</Label>
            <Select
              id="rule-scope"
              className="w-full"
              value={d.scope}
              onChange={(e) => setDraft((x) => withScope(x, e.target.value as AlertScope))}
            >
              <option value="host">Host</option>
              <option value="container">Container</option>
            </Select>
          </div>
          <div>
            <Label htmlFor="rule-severity">Severity *</Label>
            <Select
              id="rule-severity"
              className="w-full"
              value={d.severity}
              onChange={(e) => set({ severity: e.target.value as RuleDraft['severity'] })}
            >
              {SEVERITIES.map((s) => (
                <option key={s} value={s}>
                  {s.charAt(0).toUpperCase() + s.slice(1)}
                </option>
              ))}
            </Select>
          </div>
          <div className="sm:col-span-2">
            <Label htmlFor="rule-kind">Kind *</Label>
            <Select
              id="rule-kind"
              className="w-full"
              value={d.kind}
              onChange={(e) => setDraft((x) => withKind(x, e.target.value as RuleDraft['kind']))}
            >
              {kindGroups(d.scope).map((g) => (
                <optgroup key={g.category} label={g.category}>
                  {g.kinds.map((k) => (
                    <option key={k} value={k}>
                      {KIND_LABEL[k]}
                    </option>
                  ))}
                </optgroup>
              ))}
            </Select>
          </div>
        </div>
      </Section>

      {metric && info.metric !== null && (
        <Section title="Condition">
          <div className="grid gap-3 sm:grid-cols-3">
            <div>
              <Label htmlFor="rule-metric">Metric</Label>
              <Input id="rule-metric" value={METRIC_LABEL[info.metric]} readOnly disabled />
            </div>
            <div>
              <Label htmlFor="rule-operator">Operator</Label>
              <Select
                id="rule-operator"
                className="h-10 w-full"
                value={d.operator}
                onChange={(e) => set({ operator: e.target.value as RuleDraft['operator'] })}
              >
                {OPERATORS.map((o) => (
                  <option key={o} value={o}>
                    {o}
                  </option>
                ))}
              </Select>
            </div>
            <NumberField
              id="rule-threshold"
              label="Threshold (%)"
              value={d.threshold}
              min={0}
              max={100}
              step={0.1}
              onChange={(threshold) => set({ threshold })}
            />
          </div>
          {d.kind === 'disk_low' && d.scope === 'host' && <DiskNotice />}
        </Section>
      )}

      {timed && (
        <Section title="Timing">
          <div className="grid gap-3 sm:grid-cols-3">
            <NumberField
              id="rule-duration"
              label="Duration (seconds)"
              value={d.duration_seconds}
              min={metric ? 1 : 0}
              onChange={(duration_seconds) => set({ duration_seconds })}
            />
            <NumberField
              id="rule-occurrences"
              label="Occurrences"
              value={d.occurrences}
              min={1}
              max={100}
              onChange={(occurrences) => set({ occurrences })}
            />
            <NumberField
              id="rule-cooldown"
              label="Cooldown (seconds)"
              value={d.cooldown_seconds}
              min={0}
              onChange={(cooldown_seconds) => set({ cooldown_seconds })}
            />
          </div>
        </Section>
      )}

      <Section title="Clear Settings">
        <div className="grid gap-3 sm:grid-cols-2">
          {metric && (
            <NumberField
              id="rule-clear-threshold"
              label="Clear threshold (%)"
              value={d.clear_threshold}
              min={0}
              max={100}
              step={0.1}
              hint="Blank: the threshold itself"
              onChange={(clear_threshold) => set({ clear_threshold })}
            />
          )}
          <NumberField
            id="rule-clear-duration"
            label="Clear duration (seconds)"
            value={d.clear_duration_seconds}
            min={0}
            hint="Blank: clear at once"
            onChange={(clear_duration_seconds) => set({ clear_duration_seconds })}
          />
        </div>
        <Switch
          className="mt-3 text-sm text-slate-200"
          label="Auto-resolve"
          checked={d.auto_resolve}
          onCheckedChange={(auto_resolve) => set({ auto_resolve })}
        >
          Auto-resolve when the condition clears
        </Switch>
      </Section>

      {d.scope === 'host' ? (
        <HostSelection draft={d} set={set} />
      ) : (
        <ContainerSelection draft={d} set={set} />
      )}

      <ChannelPicker draft={d} set={set} />

      <Section title="Message">
        <Label htmlFor="rule-template">Custom template</Label>
        <textarea
          id="rule-template"
          rows={3}
          maxLength={2000}
          value={d.custom_template}
          placeholder="Blank: the template from Settings → Alerts"
          onChange={(e) => set({ custom_template: e.target.value })}
          className="w-full rounded-md border border-slate-700 bg-slate-900 px-3 py-2 font-mono text-sm text-slate-100 placeholder:text-slate-500 focus:border-accent focus:outline-none"
        />
      </Section>

      <Section title="Options">
        <div className="flex flex-col gap-2 text-sm text-slate-200">
          <Switch
            label="Enabled"
            checked={d.enabled}
            onCheckedChange={(enabled) => set({ enabled })}
          >
            Enabled
          </Switch>
          <Switch
            label="Suppress during updates"
            checked={d.suppress_during_updates}
            onCheckedChange={(suppress_during_updates) => set({ suppress_during_updates })}
          >
            Suppress alerts while a container is being updated
          </Switch>
        </div>
      </Section>
    </div>
  );
}

function DiskNotice() {
  const hosts = useQuery(diskAvailabilityQueryOptions()).data?.hosts ?? [];
  const missing = hosts.filter((h) => !h.available);
  if (missing.length === 0) return null;
  return (
    <p className="mt-3 rounded-md border border-amber-900 bg-amber-950/40 px-3 py-2 text-xs text-amber-200">
      The disk figure is not available for {missing.map((h) => h.host_name).join(', ')}; this rule
      cannot fire for {missing.length === 1 ? 'that host' : 'those hosts'}.
    </p>
  );
}

function IncludeAll({
  label,
  checked,
  disabled,
  onChange,
}: {
  label: string;
  checked: boolean;
  disabled: boolean;
  onChange: (checked: boolean) => void;
}) {
  return (
    <label
      className={cn('flex items-center gap-2 text-sm text-slate-200', disabled && 'opacity-50')}
    >
      <input
        type="checkbox"
        checked={checked}
        disabled={disabled}
        onChange={(e) => onChange(e.target.checked)}
      />
      {label}
    </label>
  );
}

function HostSelection({
  draft: d,
  set,
}: {
  draft: RuleDraft;
  set: (p: Partial<RuleDraft>) => void;
}) {
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

function ContainerSelection({
  draft: d,
  set,
}: {
  draft: RuleDraft;
  set: (p: Partial<RuleDraft>) => void;
}) {
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
            <Label htmlFor="rule-run-mode" className="mb-0">
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

function ChannelPicker({
  draft: d,
  set,
}: {
  draft: RuleDraft;
  set: (p: Partial<RuleDraft>) => void;
}) {
  const query = useQuery(channelsQueryOptions());
  const channels: ChannelChoice[] = query.data ?? [];
  const toggle = (id: string, checked: boolean) =>
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

/** The live Rule Summary: the draft in one readable paragraph. */
function RuleSummary({ draft: d }: { draft: RuleDraft }) {
  const hosts = useQuery(hostsQueryOptions()).data ?? [];
  const channels = useQuery(channelsQueryOptions()).data ?? [];
  const info = ALERT_RULE_KIND_INFO[d.kind];
  const metric = isMetricKind(d.kind);
  const timed = !isUpdateKind(d.kind);
  const noun = d.scope === 'host' ? 'host' : 'container';
  const target =
    d.tags.length > 0
      ? `${noun}s tagged ${d.tags.join(', ')}`
      : d.include_all ||
          d.include.length === 0 ||
          (d.scope === 'container' && d.should_run !== null)
        ? `all ${noun}s`
        : d.scope === 'host'
          ? d.include.map((id) => hosts.find((h) => h.id === id)?.name ?? id).join(', ')
          : d.include.join(', ');
  const runMode =
    d.scope === 'container' && d.should_run !== null
      ? d.should_run
        ? ' that should run'
        : ' that run on demand'
      : '';
  const picked = channels.filter((c) => d.channels.includes(c.id)).map((c) => c.name);
  return (
    <aside
      data-testid="rule-summary"
      className="h-fit rounded-lg border border-slate-800 bg-slate-950/40 p-4 text-sm lg:sticky lg:top-0"
    >
      <h3 className="mb-2 text-xs font-semibold tracking-wide text-slate-400 uppercase">
        Rule Summary
      </h3>
      <p className="font-medium text-white">{d.name.trim() === '' ? 'Untitled rule' : d.name}</p>
      <dl className="mt-3 space-y-2 text-slate-300">
        <Row label="Watches">
          {target}
          {runMode}
        </Row>
        <Row label="Condition">
          {metric && info.metric !== null
            ? `${METRIC_LABEL[info.metric]} ${d.operator} ${d.threshold || '?'}`
            : KIND_LABEL[d.kind]}
        </Row>
        {timed && (
          <Row label="Timing">
            {metric
              ? `for ${d.duration_seconds || '?'} s, ${d.occurrences || '?'} occurrence(s)`
              : 'at once'}
            {`, cooldown ${d.cooldown_seconds || '0'} s`}
          </Row>
        )}
        <Row label="Severity">
          <span className="capitalize">{d.severity}</span>
        </Row>
        <Row label="Clears">
          {d.auto_resolve
            ? `automatically${
                metric && d.clear_threshold !== '' ? ` at ${d.clear_threshold}` : ''
              }${d.clear_duration_seconds !== '' ? ` after ${d.clear_duration_seconds} s` : ''}`
            : 'manually'}
        </Row>
        <Row label="Notifies">{picked.length === 0 ? 'No channels' : picked.join(', ')}</Row>
        <Row label="Status">{d.enabled ? 'Enabled' : 'Disabled'}</Row>
      </dl>
    </aside>
  );
}

function Row({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div>
      <dt className="text-xs text-slate-500">{label}</dt>
      <dd>{children}</dd>
    </div>
  );
}
