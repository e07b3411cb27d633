import type { Container } from '@berth/contracts';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { Dialog } from '@/components/ui/dialog';
import { TabPanel, Tabs, TabsList } from '@/components/ui/tabs';
import type { ContainerDetailTab } from '@/lib/container-panels';
import { stateLabel } from '@/lib/container-state';
import { containerKeyOf } from '@berth/contracts';
import { formatSince } from '@/lib/format';
import { useLiveMessages } from '@/lib/live/live-provider';
import { containersQueryOptions } from '@/lib/queries';
import { useCanExec, useCanReadLogs } from '@/hooks/use-can';
import { ContainerLogsPanel } from '../container-logs-panel';
import { useUpdateRunning } from '../../lib/update-running';
import { PowerButtons } from '../power-buttons';
import { AlertsTab } from './alerts-tab';
import { EventsTab } from './events-tab';
import { HealthCheckTab } from './health-check-tab';
import { InfoTab } from './info-tab';
import { MetricsTab } from './metrics-tab';
import { ShellTab } from './shell-tab';
import { UpdatesTab } from './updates-tab';

/** How long the dialog waits for a recreated container to be listed before it says it is gone. */
const RECREATED_WAIT_MS = 10_000;

export const DETAIL_TABS = [
  { value: 'info', label: 'Info' },
  { value: 'logs', label: 'Logs' },
  { value: 'metrics', label: 'Metrics' },
  { value: 'shell', label: 'Shell' },
  { value: 'events', label: 'Events' },
  { value: 'alerts', label: 'Alerts' },
  { value: 'updates', label: 'Updates' },
  { value: 'health', label: 'Health Check' },
] as const satisfies readonly { value: ContainerDetailTab; label: string }[];
export type DetailTab = ContainerDetailTab;

/**
 * The full container view, for a composite key. It follows the container when
 * it is recreated (container_recreated), and Escape or the backdrop closes it.
 */
export function ContainerDetailDialog({
  containerKey: initialKey,
  tab = 'info',
  onClose,
}: {
  containerKey: string;
  tab?: DetailTab;
  onClose: () => void;
}) {
  const [key, setKey] = useState(initialKey);
  const [tabShown, setTabShown] = useState<string>(tab);
  const listed = useQuery({
    ...containersQueryOptions(),
    select: ({ containers: all }) => all.find((c) => containerKeyOf(c) === key),
  }).data;
  // A recreated container (an update) is announced before the list that holds it arrives:
  // until then the dialog keeps showing the one it had, and stays on its tab, rather than
  // flashing "no longer listed" and opening again on Info.
  const [standIn, setStandIn] = useState<Container | undefined>(undefined);
  if (listed !== undefined && standIn !== undefined) setStandIn(undefined);
  useEffect(() => {
    if (standIn === undefined) return;
    const giveUp = setTimeout(() => setStandIn(undefined), RECREATED_WAIT_MS);
    return () => clearTimeout(giveUp);
  }, [standIn]);
  const container = listed ?? standIn;
  const name = useNameBeforeUpdate(container);
  useLiveMessages('container_recreated', ({ data }) => {
    if (data.old_composite_key !== key) return;
    setStandIn(listed);
    setKey(data.new_composite_key);
  });
  return (
    <Dialog
      open
      onOpenChange={(open) => !open && onClose()}
      title={container === undefined ? 'Container' : `${name} (${container.host_name})`}
      size="screen"
      className="flex flex-col overflow-y-auto"
    >
      {container === undefined ? (
        <p className="text-sm text-slate-400">This container is no longer listed.</p>
      ) : (
        <DetailBody container={container} tab={tabShown} onTab={setTabShown} />
      )}
    </Dialog>
  );
}

const NO_CONTAINER = { host_id: '', id: '', name: '' };

/**
 * The container's name, kept from the start of its update to the end: meanwhile the engine
 * holds the previous container under a backup name, and that is not what the operator opened.
 */
function useNameBeforeUpdate(c: Pick<Container, 'host_id' | 'id' | 'name'> | undefined): string {
  const shown = c ?? NO_CONTAINER;
  const updating = useUpdateRunning(shown);
  const [held, setHeld] = useState<string | null>(null);
  if (updating && held === null) setHeld(shown.name);
  if (!updating && held !== null) setHeld(null);
  return updating ? (held ?? shown.name) : shown.name;
}

function DetailBody({
  container: c,
  tab,
  onTab,
}: {
  container: Container;
  tab: string;
  onTab: (tab: string) => void;
}) {
  const canReadLogs = useCanReadLogs();
  const canExec = useCanExec();
  const tabs = DETAIL_TABS.filter(
    (t) => (canReadLogs || t.value !== 'logs') && (canExec || t.value !== 'shell'),
  );
  // Opened on Logs by someone who may not read them: Info instead.
  const shown = tabs.some((t) => t.value === tab) ? tab : 'info';
  return (
    <div data-testid="container-detail" className="flex min-h-0 flex-1 flex-col">
      <header className="mb-4 flex items-center gap-3">
        <span className="flex h-10 w-10 items-center justify-center rounded-lg bg-slate-800 text-lg font-semibold text-white uppercase">
          {c.name.charAt(0)}
        </span>
        <div className="text-sm">
          <div className="text-slate-200" data-testid="detail-state">
            {stateLabel(c)}
          </div>
          <div className="text-xs text-slate-500">
            Up {c.state === 'running' ? formatSince(c.started_at) : '—'}
          </div>
        </div>
        <div className="ml-auto flex gap-2">
          <PowerButtons container={c} variant="dialog" />
        </div>
      </header>
      <Tabs value={shown} onValueChange={onTab} className="flex min-h-0 flex-1 flex-col">
        <TabsList tabs={tabs} />
        <TabPanel value="info">
          <InfoTab container={c} />
        </TabPanel>
        {canReadLogs && (
          <TabPanel value="logs">
            <ContainerLogsPanel container={c} heightClass="h-[60vh]" />
          </TabPanel>
        )}
        <TabPanel value="metrics">
          <MetricsTab container={c} />
        </TabPanel>
        {canExec && (
          <TabPanel value="shell">
            <ShellTab container={c} />
          </TabPanel>
        )}
        <TabPanel value="events">
          <EventsTab container={c} />
        </TabPanel>
        <TabPanel value="alerts">
          <AlertsTab container={c} />
        </TabPanel>
        <TabPanel value="updates">
          <UpdatesTab container={c} />
        </TabPanel>
        <TabPanel value="health">
          <HealthCheckTab container={c} />
        </TabPanel>
      </Tabs>
    </div>
  );
}
