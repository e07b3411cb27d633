import type { Volume } from '@berth/contracts';
import type { ColumnDef } from '@tanstack/react-table';
import { Database } from 'lucide-react';
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
import { formatAgo, formatBytes } from '@/lib/format';
import { dependantsText } from '@/lib/key-values';

/** A row's key: a volume's name is unique on its host. */
export const volumeKey = (v: Volume): string => `${v.host_id}:${v.name}`;

const volumeName = (v: Volume): string => v.name;

export function UnusedBadge({ unused }: { unused: boolean }) {
  if (!unused) return null;
  return (
    <Badge tone="slate" testId="badge-unused">
      unused
    </Badge>
  );
}

const sizeText = (v: Volume) => (v.size_bytes === null ? '—' : formatBytes(v.size_bytes));

function columnsFor(
  actions: ResourceActions<Volume>,
  canChange: boolean,
  showHost: boolean,
): ColumnDef<Volume>[] {
  return [
    nameColumn('Name', volumeName, (v) => (
      <span>
        <UnusedBadge unused={v.in_use_by.length === 0} />
      </span>
    )),
    ...hostColumns<Volume>(showHost),
    { id: 'driver', header: 'Driver', size: 100, accessorFn: (v) => v.driver },
    {
      id: 'size',
      header: 'Size',
      size: 100,
      accessorFn: (v) => v.size_bytes ?? -1,
      cell: ({ row }) => sizeText(row.original),
    },
    createdColumn((v: Volume) => v.created, true),
    usersColumn('in_use_by', 'In use by', (v: Volume) => v.in_use_by),
    actionsColumn(volumeName, actions, () => canChange),
  ];
}

/** Whether a volume matches the search: name, driver, host, a container, a label, `unused`. */
function matches(v: Volume, q: string): boolean {
  if (q === '') return true;
  return (
    v.name.toLowerCase().includes(q) ||
    v.driver.toLowerCase().includes(q) ||
    v.host_name.toLowerCase().includes(q) ||
    v.in_use_by.some((u) => u.name.toLowerCase().includes(q)) ||
    Object.entries(v.labels).some(([k, val]) => `${k}=${val}`.toLowerCase().includes(q)) ||
    (q === 'unused' && v.in_use_by.length === 0)
  );
}

/** The volumes' list: columns, card and search. */
export const VOLUME_LIST: ResourceListSpec<Volume> = {
  noun: 'volume',
  icon: Database,
  searchPlaceholder: 'Search name, driver, container, label…',
  matches,
  rowKey: volumeKey,
  testKey: volumeName,
  nameOf: volumeName,
  columns: columnsFor,
  canRemove: (_v, can) => can,
  card: (v) => (
    <>
      <p className="text-xs text-slate-400">
        {v.host_name} · {v.driver} · {sizeText(v)}
        {v.created === null ? '' : ` · ${formatAgo(v.created)}`}
      </p>
      <p className="truncate text-xs text-slate-400">In use by: {dependantsText(v.in_use_by)}</p>
      <UnusedBadge unused={v.in_use_by.length === 0} />
    </>
  ),
};
