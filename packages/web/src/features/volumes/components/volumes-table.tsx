import type { Volume } from '@berth/contracts';
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

/** The volumes: a sortable table, or cards on a phone. Removing is for `canChange`. */
export function VolumeList({
  phone,
  volumes,
  actions,
  canChange,
  showHost,
}: {
  phone: boolean;
  volumes: Volume[];
  actions: ResourceActions<Volume>;
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
      noun="volume"
      items={volumes}
      columns={columns}
      rowKey={volumeKey}
      testKey={volumeName}
      nameOf={volumeName}
      actions={actions}
      canRemove={() => canChange}
      card={(v) => (
        <>
          <p className="text-xs text-slate-400">
            {v.host_name} · {v.driver} · {sizeText(v)}
            {v.created === null ? '' : ` · ${formatAgo(v.created)}`}
          </p>
          <p className="truncate text-xs text-slate-400">
            In use by: {dependantsText(v.in_use_by)}
          </p>
          <UnusedBadge unused={v.in_use_by.length === 0} />
        </>
      )}
    />
  );
}
