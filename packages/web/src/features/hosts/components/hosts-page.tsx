import type { Host } from '@berth/contracts';
import { Plus, Search, Server } from 'lucide-react';
import { useMemo, useState } from 'react';
import { EmptyState } from '@/components/empty-state';
import { PageHeader } from '@/components/page-header';
import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import { Skeleton } from '@/components/ui/skeleton';
import { useHosts } from '../api/hosts-api';
import { DeleteHostDialog } from './delete-host-dialog';
import { HostFormDialog } from './host-form-dialog';
import { HostsTable } from './hosts-table';

/** Hosts whose name, URL or tags contain the search text. */
function matches(host: Host, search: string): boolean {
  const q = search.trim().toLowerCase();
  return q === '' || [host.name, host.url, ...host.tags].some((v) => v.toLowerCase().includes(q));
}

export function HostsPage() {
  const hosts = useHosts();
  const [search, setSearch] = useState('');
  const [editing, setEditing] = useState<Host | null | 'new'>(null);
  const [deleting, setDeleting] = useState<Host | null>(null);
  const actions = useMemo(
    () => ({ edit: (h: Host) => setEditing(h), remove: (h: Host) => setDeleting(h) }),
    [],
  );
  const visible = (hosts.data ?? []).filter((h) => matches(h, search));

  return (
    <>
      <PageHeader
        title="Hosts"
        subtitle="Manage your Docker hosts and connections"
        actions={
          <Button onClick={() => setEditing('new')}>
            <Plus className="h-4 w-4" /> Add Host
          </Button>
        }
      />
      <div className="relative mb-4 max-w-sm">
        <Search
          className="pointer-events-none absolute top-3 left-3 h-4 w-4 text-slate-500"
          aria-hidden
        />
        <Input
          aria-label="Search hosts"
          className="pl-9"
          placeholder="Search by name, URL or tags..."
          value={search}
          onChange={(e) => setSearch(e.target.value)}
        />
      </div>
      {hosts.isPending && (
        <div className="space-y-2" aria-busy="true">
          {Array.from({ length: 5 }, (_, i) => (
            <Skeleton key={i} className="h-14 w-full" />
          ))}
        </div>
      )}
      {hosts.isError && (
        <p className="text-sm text-red-300">Error loading hosts: {hosts.error.message}</p>
      )}
      {hosts.data?.length === 0 && (
        <EmptyState icon={Server} title="No hosts configured">
          Add your first Docker host to get started
        </EmptyState>
      )}
      {hosts.data !== undefined && hosts.data.length > 0 && (
        <HostsTable hosts={visible} actions={actions} />
      )}
      {editing !== null && (
        <HostFormDialog
          host={editing === 'new' ? null : editing}
          onClose={() => setEditing(null)}
        />
      )}
      {deleting !== null && <DeleteHostDialog host={deleting} onClose={() => setDeleting(null)} />}
    </>
  );
}
