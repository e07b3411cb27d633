import type { Network } from '@berth/contracts';
import type { ColumnDef } from '@tanstack/react-table';
import { useMemo } from 'react';
import {
  actionsColumn,
  Badge,
  createdColumn,
  hostColumns,
  nameColumn,
  ResourceList,
  usersColumn,
  type ResourceActions,
} from '@/components/resource-list/resource-columns';
import { dependantsText } from '@/lib/key-values';

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

function columnsFor(
  actions: ResourceActions<Network>,
  canChange: boolean,
  showHost: boolean,
): ColumnDef<Network>[] {
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
    actionsColumn(networkName, actions, (n) => canChange && !n.builtin),
  ];
}

/** The networks: a sortable table, or cards on a phone. Removing is for `canChange`. */
export function NetworkList({
  phone,
  networks,
  actions,
  canChange,
  showHost,
}: {
  phone: boolean;
  networks: Network[];
  actions: ResourceActions<Network>;
  canChange: boolean;
  showHost: boolean;
}) {
  const columns = useMemo(
    () => columnsFor(actions, canChange, showHost),
    [actions, canChange, showHost],
  );
  return (
    <ResourceList
      phone={phone}
      noun="network"
      items={networks}
      columns={columns}
      rowKey={networkKey}
      testKey={networkName}
      nameOf={networkName}
      actions={actions}
      canRemove={(n) => canChange && !n.builtin}
      card={(n) => (
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
    />
  );
}
