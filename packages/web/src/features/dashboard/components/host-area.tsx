import type { DashboardPreferences, GridItem, Host, Preferences } from '@berth/contracts';
import { ChevronDown, ChevronRight } from 'lucide-react';
import { Fragment, type ReactNode } from 'react';
import { SortableList } from '@/components/sortable-list';
import { usePhone } from '@/hooks/use-breakpoint';
import { useUpdatePreferences } from '@/lib/preferences';
import { orderedBy, type CardMode } from '../lib/host-layouts';
import { groupHostsByTag, groupLayoutKey, type HostGroup } from '../lib/group-hosts';
import { CompactHostList } from './compact-host-list';
import { HostGrid } from './host-grid';

const layoutKey: Record<CardMode, 'hostCardLayout' | 'hostCardLayoutStandard'> = {
  expanded: 'hostCardLayout',
  standard: 'hostCardLayoutStandard',
};

const isGrid = (v: GridItem[] | string[] | undefined): v is GridItem[] =>
  v !== undefined && v.every((x) => typeof x !== 'string');
const isOrder = (v: GridItem[] | string[] | undefined): v is string[] =>
  v !== undefined && v.every((x) => typeof x === 'string');

/** The hosts of the dashboard in the chosen mode, grouped by tag or not. */
export function HostArea({ hosts, prefs }: { hosts: Host[]; prefs: Preferences }) {
  const update = useUpdatePreferences();
  // A phone shows the groups in their saved order without reordering them (no drag).
  const phone = usePhone();
  const dashboard = prefs.dashboard;
  const mode = prefs.view_mode;
  const saveDashboard = (patch: DashboardPreferences) => update.mutate({ dashboard: patch });

  /** The hosts of one set (all, or one tag group) in the current mode. */
  const hostsView = (
    members: Host[],
    savedOrder: string[] | undefined,
    savedGrid: GridItem[] | undefined,
    save: { order: (ids: string[]) => void; grid: (layout: GridItem[]) => void },
  ): ReactNode =>
    mode === 'compact' ? (
      <CompactHostList hosts={orderedBy(members, savedOrder)} onReorder={save.order} />
    ) : (
      <HostGrid key={mode} hosts={members} mode={mode} saved={savedGrid} onSave={save.grid} />
    );

  if (prefs.group_by !== 'tag') {
    return hostsView(
      hosts,
      dashboard.compactHostOrder,
      mode === 'compact' ? undefined : dashboard[layoutKey[mode]],
      {
        order: (ids) => saveDashboard({ compactHostOrder: ids }),
        grid: (layout) => {
          if (mode !== 'compact') saveDashboard({ [layoutKey[mode]]: layout });
        },
      },
    );
  }

  const groups = groupHostsByTag(hosts, dashboard.tagGroupOrder);
  const collapsed = new Set(prefs.collapsed_groups);
  const saveGroupLayout = (key: string, value: GridItem[] | string[]) =>
    saveDashboard({ groupLayouts: { ...dashboard.groupLayouts, [key]: value } });
  const toggle = (tag: string) =>
    update.mutate({
      collapsed_groups: collapsed.has(tag)
        ? prefs.collapsed_groups.filter((t) => t !== tag)
        : [...prefs.collapsed_groups, tag],
    });

  const groupView = (group: HostGroup, handle: ReactNode) => {
    const key = groupLayoutKey(group.tag, mode);
    const saved = dashboard.groupLayouts?.[key];
    return (
      <section
        className="mb-4"
        data-testid={`tag-group-${group.tag}`}
        aria-label={`Group ${group.tag}`}
      >
        <GroupHeader
          group={group}
          handle={handle}
          open={!collapsed.has(group.tag)}
          onToggle={() => toggle(group.tag)}
        />
        {!collapsed.has(group.tag) &&
          hostsView(
            group.hosts,
            isOrder(saved) ? saved : undefined,
            isGrid(saved) ? saved : undefined,
            {
              order: (ids) => saveGroupLayout(key, ids),
              grid: (layout) => saveGroupLayout(key, layout),
            },
          )}
      </section>
    );
  };

  if (phone)
    return (
      <div>
        {groups.map((group) => (
          <Fragment key={group.tag}>{groupView(group, null)}</Fragment>
        ))}
      </div>
    );
  return (
    <SortableList
      items={groups}
      idOf={(g) => g.tag}
      labelOf={(g) => `group ${g.tag}`}
      onReorder={(order) => saveDashboard({ tagGroupOrder: order })}
    >
      {groupView}
    </SortableList>
  );
}

function GroupHeader({
  group,
  handle,
  open,
  onToggle,
}: {
  group: HostGroup;
  handle: ReactNode;
  open: boolean;
  onToggle: () => void;
}) {
  const Chevron = open ? ChevronDown : ChevronRight;
  return (
    <header className="mb-2 flex items-center gap-2 border-b border-slate-800 pb-2 max-md:flex-wrap max-md:gap-y-0">
      {handle}
      <button
        type="button"
        onClick={onToggle}
        aria-expanded={open}
        className="flex items-center gap-2 text-sm font-semibold text-white max-md:min-h-11"
      >
        <Chevron className="h-4 w-4 text-slate-400" />
        {group.tag}
      </button>
      <span className="text-xs text-slate-400" data-testid="group-counts">
        {group.hosts.length} {group.hosts.length === 1 ? 'host' : 'hosts'} · {group.counts.online}{' '}
        online · {group.counts.offline} offline · {group.counts.error} error
      </span>
    </header>
  );
}
