import type { Network } from '@berth/contracts';
import type { ColumnDef } from '@tanstack/react-table';
import { useMemo } from 'react';
import {
  actionsColumn,
  Badge,
  createdColumn,
  hostColumns,
  nameColumn,
  ResourceCards,
  ResourceTable,
  usersColumn,
  type ResourceActions,
} from '@/components/resource-list/resource-columns';
import { dependantsText } from '@/lib/key-values';

export interface NetworkActions extends ResourceActions<Network> {
  canChange: boolean;
}

export const networkKey = (n: Network): string => `${n.host_id}:${n.id}`;

export const subnetText = (n: Network): string =>
  n.subnets.length === 0
    ? '—'
    : n.subnets
        .map((s) => `${s.subnet ?? '?'}${s.gateway === null ? '' : ` via ${s.gateway}`}`)
        .join(', ');

export function NetworkBadges({ n }: { n: Network }) {
  return (
    <span className="inline-flex flex-wrap gap-1">
      {n.builtin && (
        <Badge tone="sky" testId="badge-builtin">
          built-in
        </Badge>
      )}
      {!n.builtin && n.in_use_by.length === 0 && (
        <Badge tone="slate" testId="badge-unused">
          unused
        </Badge>
      )}
      {n.internal && <Badge tone="amber">internal</Badge>}
      {n.attachable && <Badge tone="slate">attachable</Badge>}
    </span>
  );
}

const networkName = (n: Network): string => n.name;

function columnsFor(actions: NetworkActions, showHost: boolean): ColumnDef<Network>[] {
  return [
    nameColumn('Name', networkName, (n) => <NetworkBadges n={n} />),
    ...hostColumns<Network>(showHost),
    { id: 'driver', header: 'Driver', size: 90, accessorFn: (n) => n.driver },
    { id: 'scope', header: 'Scope', size: 80, accessorFn: (n) => n.scope },
    {
      id: 'subnet',
      header: 'Subnet',
      size: 200,
      accessorFn: subnetText,
      cell: ({ getValue }) => <code className="text-xs text-slate-300">{String(getValue())}</code>,
    },
    createdColumn((n: Network) => n.created, false),
    usersColumn('in_use_by', 'Containers', (n: Network) => n.in_use_by),
    actionsColumn(networkName, actions, (n) => actions.canChange && !n.builtin),
  ];
}

/** The networks as a dense, sortable table; past 100 rows only those in view are drawn. */
export function NetworksTable({
  networks,
  actions,
  showHost,
}: {
  networks: Network[];
  actions: NetworkActions;
  showHost: boolean;
}) {
  const columns = useMemo(() => columnsFor(actions, showHost), [actions, showHost]);
  return (
    <ResourceTable
      data={networks}
      columns={columns}
      rowKey={networkKey}
      rowTestId={(n) => `network-row-${n.name}`}
    />
  );
}

/** The networks as cards, for a phone. */
export function NetworkCards({
  networks,
  actions,
}: {
  networks: Network[];
  actions: NetworkActions;
}) {
  return (
    <ResourceCards
      items={networks}
      testId="network-cards"
      cardTestId={(n) => `network-card-${n.name}`}
      rowKey={networkKey}
      nameOf={networkName}
      actions={actions}
      canRemove={(n) => actions.canChange && !n.builtin}
    >
      {(n) => (
        <>
          <p className="text-xs text-slate-400">
            {n.host_name} · {n.driver} · {n.scope} · {subnetText(n)}
          </p>
          <p className="truncate text-xs text-slate-400">
            Containers: {dependantsText(n.in_use_by)}
          </p>
          <NetworkBadges n={n} />
        </>
      )}
    </ResourceCards>
  );
}
