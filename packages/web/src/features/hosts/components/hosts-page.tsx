import type { Alert, Host } from '@berth/contracts';
import { useQuery } from '@tanstack/react-query';
import type { RowSelectionState } from '@tanstack/react-table';
import { Plus, Search, Server } from 'lucide-react';
import { useCallback, useEffect, useMemo, useState } from 'react';
import { useSearchParams } from 'react-router';
import { EmptyState } from '@/components/empty-state';
import { PageHeader } from '@/components/page-header';
import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import { Skeleton } from '@/components/ui/skeleton';
import { usePhone } from '@/hooks/use-breakpoint';
import { useHostPanels } from '@/lib/host-panels';
import { usePreferences } from '@/lib/preferences';
import { openAlertsQueryOptions } from '@/lib/alerts';
import { useHosts } from '../api/hosts-api';
import { BulkTagBar } from './bulk-tag-bar';
import { DeleteHostDialog } from './delete-host-dialog';
import { HostCards } from './host-cards';
import { HostFormDialog } from './host-form-dialog';
import { HostsTable } from './hosts-table';
import { RotateSecretDialog } from './rotate-secret-dialog';

/** Hosts whose name, URL or tags contain the search text. */
function matches(host: Host, search: string): boolean {
  const q = search.trim().toLowerCase();
  return q === '' || [host.name, host.url, ...host.tags].some((v) => v.toLowerCase().includes(q));
}

export function HostsPage() {
  const hosts = useHosts();
  const panels = useHostPanels();
  const simplified = usePreferences().data?.simplified_workflow ?? true;
  const openAlerts = useQuery(openAlertsQueryOptions()).data?.alerts;
  const [search, setSearch] = useState('');
  const [editing, setEditing] = useState<Host | null | 'new'>(null);
  const [deleting, setDeleting] = useState<Host | null>(null);
  const [rotating, setRotating] = useState<Host | null>(null);
  const [selection, setSelection] = useState<RowSelectionState>({});
  // Phones pick hosts for the tag bar in Select mode (a tap otherwise opens the host).
  const [selecting, setSelecting] = useState(false);
  const [params, setParams] = useSearchParams();
  const phone = usePhone();
  const actions = useMemo(
    () => ({
      edit: (h: Host) => setEditing(h),
      remove: (h: Host) => setDeleting(h),
      rotateSecret: (h: Host) => setRotating(h),
      ...(simplified ? {} : { view: (h: Host) => panels.openHost(h.id) }),
    }),
    [simplified, panels],
  );
  const alertsOf = useCallback(
    (hostId: string): Alert[] => openAlerts?.filter((a) => a.host_id === hostId) ?? [],
    [openAlerts],
  );
  const visible = (hosts.data ?? []).filter((h) => matches(h, search));
  const selected = (hosts.data ?? []).filter((h) => selection[h.id] === true);

  // /hosts?hostId= opens that host, then drops the parameter.
  const linkedHost = params.get('hostId');
  useEffect(() => {
    if (linkedHost === null) return;
    panels.openHost(linkedHost, { expanded: true });
    setParams(
      (prev) => {
        prev.delete('hostId');
        return prev;
      },
      { replace: true },
    );
  }, [linkedHost, panels, setParams]);

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
          className={
            phone
              ? 'pointer-events-none absolute top-3.5 left-3 h-4 w-4 text-slate-500'
              : 'pointer-events-none absolute top-3 left-3 h-4 w-4 text-slate-500'
          }
          aria-hidden
        />
        <Input
          aria-label="Search hosts"
          size={phone ? 'touch' : 'lg'}
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
        <>
          {selected.length > 0 && <BulkTagBar hosts={selected} onDone={() => setSelection({})} />}
          {phone && (
            <div className="mb-2 flex items-center justify-end gap-2">
              {selecting ? (
                <>
                  <Button
                    variant="ghost"
                    size="touch"
                    onClick={() =>
                      setSelection(Object.fromEntries(visible.map((h) => [h.id, true])))
                    }
                  >
                    All
                  </Button>
                  <Button
                    variant="secondary"
                    size="touch"
                    onClick={() => {
                      setSelecting(false);
                      setSelection({});
                    }}
                  >
                    Done
                  </Button>
                </>
              ) : (
                <Button variant="secondary" size="touch" onClick={() => setSelecting(true)}>
                  Select
                </Button>
              )}
            </div>
          )}
          {phone ? (
            <HostCards
              hosts={visible}
              actions={actions}
              alertsOf={alertsOf}
              onOpen={(h) => panels.openHost(h.id, { expanded: true })}
              selection={
                selecting
                  ? {
                      picked: selection,
                      onPick: (id, on) =>
                        setSelection((prev) =>
                          on
                            ? { ...prev, [id]: true }
                            : Object.fromEntries(Object.entries(prev).filter(([k]) => k !== id)),
                        ),
                    }
                  : undefined
              }
            />
          ) : (
            <HostsTable
              hosts={visible}
              actions={actions}
              alertsOf={alertsOf}
              selection={selection}
              onSelectionChange={setSelection}
            />
          )}
        </>
      )}
      {editing !== null && (
        <HostFormDialog
          host={editing === 'new' ? null : editing}
          onClose={() => setEditing(null)}
        />
      )}
      {deleting !== null && <DeleteHostDialog host={deleting} onClose={() => setDeleting(null)} />}
      {rotating !== null && (
        <RotateSecretDialog host={rotating} onClose={() => setRotating(null)} />
      )}
    </>
  );
}
