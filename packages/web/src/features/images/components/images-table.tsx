import type { Image } from '@berth/contracts';
import type { ColumnDef } from '@tanstack/react-table';
import { HardDrive } from 'lucide-react';
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

/** A row's key: an image is one per host. */
export const imageKey = (i: Image): string => `${i.host_id}:${i.id}`;

/** What the first column shows: the tags, or `<none>` for a dangling image. */
export const imageName = (i: Image): string => (i.tags.length === 0 ? '<none>' : i.tags.join(', '));

/** The dangling and unused badges. */
export function ImageBadges({ image }: { image: Image }) {
  return (
    <span className="inline-flex gap-1">
      {image.dangling && (
        <Badge tone="amber" testId="badge-dangling">
          dangling
        </Badge>
      )}
      {image.unused && (
        <Badge tone="slate" testId="badge-unused">
          unused
        </Badge>
      )}
    </span>
  );
}

/** The containers using an image, by name. */
export const usedByText = (i: Image): string => dependantsText(i.used_by);

/** Newest first, until a header is clicked. */
const NEWEST_FIRST = [{ id: 'created', desc: true }];

function columnsFor(
  actions: ResourceActions<Image>,
  canOperate: boolean,
  showHost: boolean,
): ColumnDef<Image>[] {
  return [
    nameColumn('Repository:tag', imageName, (i) => <ImageBadges image={i} />),
    ...hostColumns<Image>(showHost),
    {
      id: 'id',
      header: 'ID',
      size: 130,
      accessorFn: (i) => i.short_id,
      cell: ({ getValue }) => <code className="text-xs text-slate-300">{String(getValue())}</code>,
    },
    {
      id: 'size',
      header: 'Size',
      size: 100,
      accessorFn: (i) => i.size,
      cell: ({ row }) => formatBytes(row.original.size),
    },
    createdColumn((i: Image) => i.created, true),
    usersColumn('used_by', 'In use by', (i: Image) => i.used_by),
    actionsColumn(imageName, actions, () => canOperate),
  ];
}

/** Whether an image matches the search: its tags, id, host, or a container using it. */
function matches(i: Image, q: string): boolean {
  if (q === '') return true;
  return (
    i.tags.some((t) => t.toLowerCase().includes(q)) ||
    i.id.includes(q) ||
    i.host_name.toLowerCase().includes(q) ||
    i.used_by.some((u) => u.name.toLowerCase().includes(q)) ||
    (q === 'dangling' && i.dangling) ||
    (q === 'unused' && i.unused)
  );
}

/** The images' list: columns, card and search. */
export const IMAGE_LIST: ResourceListSpec<Image> = {
  noun: 'image',
  icon: HardDrive,
  searchPlaceholder: 'Search tag, id, container…',
  matches,
  rowKey: imageKey,
  testKey: (i) => i.short_id,
  nameOf: imageName,
  columns: columnsFor,
  canRemove: (_i, can) => can,
  initialSorting: NEWEST_FIRST,
  card: (i) => (
    <>
      <p className="text-xs text-slate-400">
        {i.host_name} · <code>{i.short_id}</code> · {formatBytes(i.size)} · {formatAgo(i.created)}
      </p>
      <p className="truncate text-xs text-slate-400">In use by: {usedByText(i)}</p>
      <ImageBadges image={i} />
    </>
  ),
};
