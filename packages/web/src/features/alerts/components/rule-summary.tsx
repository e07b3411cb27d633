import { ALERT_RULE_KIND_INFO, isMetricKind, isUpdateKind } from '@berth/contracts';
import { useQuery } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { hostsQueryOptions } from '@/lib/queries';
import { channelsQueryOptions } from '../api/rules-api';
import { KIND_LABEL, METRIC_LABEL, type RuleDraft } from '../lib/rule-draft';

/** The live Rule Summary: the draft in one readable paragraph. */
export function RuleSummary({ draft: d }: { draft: RuleDraft }) {
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
              ? d.look_back
                ? `average over ${d.duration_seconds || '?'} s from history`
                : `for ${d.duration_seconds || '?'} s, ${d.occurrences || '?'} occurrence(s)`
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
