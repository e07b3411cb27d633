import {
  ALERT_RULE_KIND_INFO,
  isMetricKind,
  isUpdateKind,
  type AlertScope,
} from '@berth/contracts';
import { useQuery } from '@tanstack/react-query';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { Select } from '@/components/ui/select';
import { Switch } from '@/components/ui/switch';
import { diskAvailabilityQueryOptions } from '../api/rules-api';
import {
  KIND_LABEL,
  METRIC_LABEL,
  kindGroups,
  withKind,
  withScope,
  type RuleDraft,
} from '../lib/rule-draft';
import { NumberField, Section, type DraftPatch } from './rule-form-parts';
import { ChannelPicker, ContainerSelection, HostSelection } from './rule-targets';

const SEVERITIES = ['critical', 'error', 'warning', 'info'] as const;
const OPERATORS = ['>=', '>', '<=', '<'] as const;

/** Every section of the rule form, in the spec's order; the kind decides which show. */
export function RuleFields({
  draft: d,
  set,
  setDraft,
}: {
  draft: RuleDraft;
  set: DraftPatch;
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
                size="lg"
                className="w-full"
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
              disabled={d.look_back}
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
          {metric && (
            <div className="mt-3 text-sm text-slate-200">
              <Switch
                label="Look back over history"
                checked={d.look_back}
                onCheckedChange={(look_back) => set({ look_back })}
              >
                Look back over history
              </Switch>
              <p className="text-xs text-slate-400" data-testid="look-back-hint">
                Compares the average over the duration read from metrics history, so a long rule
                survives a Berth restart.
              </p>
            </div>
          )}
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
              hint={`Blank: the threshold itself; else at or ${d.operator.startsWith('>') ? 'below' : 'above'} it`}
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
