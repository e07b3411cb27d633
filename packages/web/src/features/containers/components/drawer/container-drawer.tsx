import type { Container } from '@berth/contracts';
import { useQuery } from '@tanstack/react-query';
import { MoreHorizontal } from 'lucide-react';
import { EventList } from '@/components/event-list';
import { ActionMenu, DropdownMenuItem } from '@/components/ui/dropdown-menu';
import { Sheet } from '@/components/ui/sheet';
import { TabPanel, Tabs, TabsList } from '@/components/ui/tabs';
import { stateLabel } from '@/lib/container-state';
import { formatSince } from '@/lib/format';
import { containerKeyOf } from '@berth/contracts';
import { containerEventsQueryOptions, containersQueryOptions } from '@/lib/queries';
import { useCanReadLogs } from '@/hooks/use-can';
import { ContainerLogsPanel } from '../container-logs-panel';
import { PowerButtons } from '../power-buttons';
import { DrawerOverview } from './drawer-overview';

const DRAWER_WIDTH = 480;
const EVENTS_SHOWN = 20;
const TABS = [
  { value: 'overview', label: 'Overview' },
  { value: 'events', label: 'Events' },
  { value: 'logs', label: 'Logs' },
];
/** Offered in the menu, not implemented yet (only logged). */
const NOT_YET = ['Silence Alerts', 'Hide on Dashboard', 'Pin on Dashboard'] as const;

/** The container drawer opened from host views. */
export function ContainerDrawer({
  containerKey: key,
  onClose,
  onExpand,
}: {
  containerKey: string;
  onClose: () => void;
  onExpand?: () => void;
}) {
  const container = useQuery({
    ...containersQueryOptions(),
    select: ({ containers: all }) => all.find((c) => containerKeyOf(c) === key),
  });
  const c = container.data;
  const canReadLogs = useCanReadLogs();
  return (
    <Sheet
      open
      onOpenChange={(open) => !open && onClose()}
      title="Container Details"
      width={DRAWER_WIDTH}
      actions={c !== undefined && <MoreActions container={c} onExpand={onExpand} />}
    >
      {c === undefined ? (
        <p className="text-sm text-slate-400">
          {container.isPending ? 'Loading…' : 'This container is no longer listed.'}
        </p>
      ) : (
        <div data-testid="container-drawer">
          <DrawerSummary container={c} />
          <Tabs defaultValue="overview">
            <TabsList tabs={canReadLogs ? TABS : TABS.filter((t) => t.value !== 'logs')} />
            <TabPanel value="overview">
              <DrawerOverview container={c} />
            </TabPanel>
            <TabPanel value="events">
              <DrawerEvents container={c} />
            </TabPanel>
            {canReadLogs && (
              <TabPanel value="logs">
                <ContainerLogsPanel container={c} heightClass="h-[calc(100vh-12rem)]" />
              </TabPanel>
            )}
          </Tabs>
        </div>
      )}
    </Sheet>
  );
}

/** Name, host, state and uptime, with the power actions, above every tab. */
function DrawerSummary({ container: c }: { container: Container }) {
  return (
    <div className="mb-4 flex items-start gap-3">
      <div className="min-w-0 flex-1">
        <div
          className="truncate text-base font-semibold text-white"
          data-testid="drawer-container-name"
          title={c.name}
        >
          {c.name}
        </div>
        <div className="text-xs text-slate-400">
          {c.host_name} · <span data-testid="drawer-state">{stateLabel(c)}</span>
          {c.state === 'running' && ` · up ${formatSince(c.started_at)}`}
        </div>
      </div>
      <div className="flex shrink-0 gap-2">
        <PowerButtons container={c} variant="drawer" />
      </div>
    </div>
  );
}

function MoreActions({
  container: c,
  onExpand,
}: {
  container: Container;
  onExpand: (() => void) | undefined;
}) {
  return (
    <ActionMenu
      label="More actions"
      icon={<MoreHorizontal className="h-4 w-4" />}
      className="rounded p-1.5 text-slate-400 hover:bg-slate-800 hover:text-white"
    >
      {onExpand !== undefined && (
        <DropdownMenuItem onSelect={onExpand}>Open Full Details</DropdownMenuItem>
      )}
      {NOT_YET.map((label) => (
        <DropdownMenuItem
          key={label}
          onSelect={() => console.info(`${label}: not implemented yet`, containerKeyOf(c))}
        >
          {label}
        </DropdownMenuItem>
      ))}
    </ActionMenu>
  );
}

function DrawerEvents({ container: c }: { container: Container }) {
  const events = useQuery(containerEventsQueryOptions(c.host_id, c.id, EVENTS_SHOWN));
  if (events.isError) return <p className="text-sm text-red-300">Failed to load events</p>;
  if (events.isPending) return <p className="text-sm text-slate-400">Loading…</p>;
  return <EventList events={events.data.events} testId="container-drawer-events" />;
}
