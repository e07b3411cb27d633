import type { Host } from '@berth/contracts';
import { useQuery } from '@tanstack/react-query';
import { HostUptime } from '@/components/host-uptime';
import { LiveChart } from '@/components/live-chart';
import { Dialog } from '@/components/ui/dialog';
import { TabPanel, Tabs, TabsList } from '@/components/ui/tabs';
import { InfoRow, Section } from '@/components/detail-section';
import { useContainersTableSlot } from '@/lib/containers-table-slot';
import { useHostTabSlots } from '@/lib/host-tab-slots';
import { formatBytes, formatRate } from '@/lib/format';
import { hostContainersQueryOptions, settingsQueryOptions } from '@/lib/queries';
import { useHostDetail } from '../api/hosts-api';
import { HostEventsTab } from './host-events-tab';
import { HostMetricsTab } from './host-metrics-tab';
import { HostRecentEvents } from './host-recent-events';
import { HostTagsEditor } from './host-tags-editor';
import { AgentInfoRows, connectionLabel } from './connection';

/** The hosts feature's own tabs; other features' tabs (HostTabSlots) come after Containers. */
const OWN_TABS = {
  first: [
    { value: 'overview', label: 'Overview' },
    { value: 'metrics', label: 'Metrics' },
    { value: 'containers', label: 'Containers' },
  ],
  last: [{ value: 'events', label: 'Events' }],
};

const CHARTS: {
  title: string;
  series: 'cpu' | 'mem' | 'net';
  color: string;
  format: (v: number) => string;
  max?: number;
}[] = [
  { title: 'CPU', series: 'cpu', color: '#38bdf8', format: (v) => `${v.toFixed(0)}%`, max: 100 },
  { title: 'Memory', series: 'mem', color: '#a78bfa', format: (v) => `${v.toFixed(0)}%`, max: 100 },
  { title: 'Network Traffic', series: 'net', color: '#34d399', format: (v) => formatRate(v) },
];

function StatCard({ label, value }: { label: string; value: number }) {
  return (
    <div
      className="rounded-xl border border-slate-800 bg-slate-950/40 px-4 py-3"
      data-testid={`stat-${label}`}
    >
      <div className="text-xs tracking-wide text-slate-400 uppercase">{label}</div>
      <div className="text-2xl font-semibold text-white tabular-nums">{value}</div>
    </div>
  );
}

/**
 * The full host view. Mounted fresh each time it opens, so it starts on Overview;
 * Escape, the close button and a backdrop click close it.
 */
export function HostDetailModal({ hostId, onClose }: { hostId: string; onClose: () => void }) {
  const host = useHostDetail(hostId).data;
  return (
    <Dialog
      open
      onOpenChange={(open) => !open && onClose()}
      title={`Hosts > ${host?.name ?? ''}`}
      size="screen"
      className="flex flex-col overflow-y-auto"
    >
      {host !== undefined && <ModalBody host={host} />}
    </Dialog>
  );
}

function ModalBody({ host }: { host: Host }) {
  const containers = useQuery(hostContainersQueryOptions(host.id)).data ?? [];
  const interval = useQuery(settingsQueryOptions()).data?.polling_interval ?? 2;
  const running = containers.filter((c) => c.state === 'running').length;
  const scopedContainers = useContainersTableSlot();
  const slotTabs = useHostTabSlots();
  const tabs = [...OWN_TABS.first, ...slotTabs, ...OWN_TABS.last];
  return (
    <div data-testid="host-modal">
      <div className="mb-5 grid grid-cols-4 gap-3 max-md:grid-cols-2">
        <StatCard label="Containers" value={containers.length} />
        <StatCard label="Running" value={running} />
        <StatCard label="Stopped" value={containers.length - running} />
        <StatCard label="Alerts" value={host.alerts.open} />
      </div>
      <Tabs defaultValue="overview">
        <TabsList tabs={tabs} />
        <TabPanel value="overview">
          <div className="grid grid-cols-1 gap-6 lg:grid-cols-2">
            <div>
              <Section title="Host Information">
                <dl>
                  <InfoRow label="Address">{host.url}</InfoRow>
                  <InfoRow label="Connection">
                    <span data-testid="modal-connection-type">{connectionLabel(host)}</span>
                  </InfoRow>
                  <AgentInfoRows host={host} testIdPrefix="modal" />
                  <InfoRow label="Uptime">
                    <HostUptime host={host} detailed />
                  </InfoRow>
                  <InfoRow label="OS">{host.os_version ?? '—'}</InfoRow>
                  <InfoRow label="Docker Version">{host.docker_version ?? '—'}</InfoRow>
                  <InfoRow label="CPU count">{host.num_cpus ?? '—'}</InfoRow>
                  <InfoRow label="Memory">{formatBytes(host.total_memory)}</InfoRow>
                </dl>
              </Section>
              <Section title="Tags">
                <HostTagsEditor host={host} />
              </Section>
              <Section title="Recent Events">
                <HostRecentEvents hostId={host.id} limit={3} table />
              </Section>
            </div>
            <Section title="Live Stats">
              <div className="space-y-3">
                {CHARTS.map((chart) => (
                  <LiveChart
                    key={chart.title}
                    title={chart.title}
                    values={host.sparklines?.[chart.series] ?? []}
                    intervalSeconds={interval}
                    color={chart.color}
                    format={chart.format}
                    {...(chart.max === undefined ? {} : { max: chart.max })}
                  />
                ))}
              </div>
            </Section>
          </div>
        </TabPanel>
        <TabPanel value="metrics">
          <HostMetricsTab host={host} />
        </TabPanel>
        <TabPanel value="containers">
          <div data-testid="host-modal-containers">{scopedContainers?.(host.id)}</div>
        </TabPanel>
        {slotTabs.map((slot) => (
          <TabPanel key={slot.value} value={slot.value}>
            {slot.render(host.id)}
          </TabPanel>
        ))}
        <TabPanel value="events">
          <HostEventsTab host={host} />
        </TabPanel>
      </Tabs>
    </div>
  );
}
