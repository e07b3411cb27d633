import type { Volume } from '@berth/contracts';
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
import { formatAgo, formatBytes } from '@/lib/format';
import { dependantsText } from '@/lib/key-values';

export interface VolumeActions extends ResourceActions<Volume> {
  canChange: boolean;
}

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

function columnsFor(actions: VolumeActions, showHost: boolean): ColumnDef<Volume>[] {
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
    actionsColumn(volumeName, actions, () => actions.canChange),
  ];
}

/** The volumes as a dense, sortable table; past 100 rows only those in view are drawn. */
export function VolumesTable({
  volumes,
  actions,
  showHost,
}: {
  volumes: Volume[];
  actions: VolumeActions;
  showHost: boolean;
}) {
  const columns = useMemo(() => columnsFor(actions, showHost), [actions, showHost]);
  return (
    <ResourceTable
      data={volumes}
      columns={columns}
      rowKey={volumeKey}
      rowTestId={(v) => `volume-row-${v.name}`}
    />
  );
}

/** The volumes as cards, for a phone. */
export function VolumeCards({ volumes, actions }: { volumes: Volume[]; actions: VolumeActions }) {
  return (
    <ResourceCards
      items={volumes}
      testId="volume-cards"
      cardTestId={(v) => `volume-card-${v.name}`}
      rowKey={volumeKey}
      nameOf={volumeName}
      actions={actions}
      canRemove={() => actions.canChange}
    >
      {(v) => (
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
    </ResourceCards>
  );
}
