import type { Network } from '@berth/contracts';
import type { ColumnDef } from '@tanstack/react-table';
import { Network as NetworkIcon } from 'lucide-react';
import {
  actionsColumn,
  Badge,
  createdColumn,
  hostColumns,
  nameColumn,
  type ResourceListSpec,
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

/** Whether a network matches the search: name, id, driver, subnet, host, a container, `unused`. */
function matches(n: Network, q: string): boolean {
  if (q === '') return true;
  return (
    n.name.toLowerCase().includes(q) ||
    n.id.startsWith(q) ||
    n.driver.toLowerCase().includes(q) ||
    subnetText(n).includes(q) ||
    n.host_name.toLowerCase().includes(q) ||
    n.in_use_by.some((u) => u.name.toLowerCase().includes(q)) ||
    (q === 'unused' && !n.builtin && n.in_use_by.length === 0)
  );
}

/** The networks' list: columns, card and search. */
export const NETWORK_LIST: ResourceListSpec<Network> = {
  noun: 'network',
  icon: NetworkIcon,
  searchPlaceholder: 'Search name, subnet, container…',
  matches,
  rowKey: networkKey,
  testKey: networkName,
  nameOf: networkName,
  columns: columnsFor,
  canRemove: (n, can) => can && !n.builtin,
  card: (n) => (
    <>
      <p className="text-xs text-slate-400">
        {n.host_name} · {n.driver} · {n.scope} · {subnetText(n)}
      </p>
      <p className="truncate text-xs text-slate-400">Containers: {dependantsText(n.in_use_by)}</p>
      <NetworkBadges n={n} />
    </>
  ),
};
