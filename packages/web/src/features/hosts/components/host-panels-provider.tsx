import { useQuery } from '@tanstack/react-query';
import { lazy, Suspense, useMemo, useState, type ReactNode } from 'react';
import { HostPanelsContext, type HostPanels } from '@/lib/host-panels';
import { usePreferences } from '@/lib/preferences';
import { hostsQueryOptions } from '@/lib/queries';

// Loaded on first use, so the panels (and uPlot) stay out of every screen's first load.
const HostDetailModal = lazy(async () => ({
  default: (await import('./host-detail-modal')).HostDetailModal,
}));
const HostDrawer = lazy(async () => ({ default: (await import('./host-drawer')).HostDrawer }));
const HostFormDialog = lazy(async () => ({
  default: (await import('./host-form-dialog')).HostFormDialog,
}));

type Open = { kind: 'drawer' | 'modal' | 'edit'; hostId: string; seq: number } | null;

/** Holds the host drawer, detail modal and edit dialog for every screen (see lib/host-panels). */
export function HostPanelsProvider({ children }: { children: ReactNode }) {
  const simplified = usePreferences().data?.simplified_workflow ?? true;
  const hosts = useQuery(hostsQueryOptions()).data;
  const [open, setOpen] = useState<Open>(null);
  const panels = useMemo<HostPanels>(
    () => ({
      openHost: (hostId, options) =>
        setOpen((prev) => ({
          kind: options?.expanded === true || simplified ? 'modal' : 'drawer',
          hostId,
          seq: (prev?.seq ?? 0) + 1,
        })),
      editHost: (hostId) =>
        setOpen((prev) => ({ kind: 'edit', hostId, seq: (prev?.seq ?? 0) + 1 })),
    }),
    [simplified],
  );
  const close = () => setOpen(null);
  const editing = open?.kind === 'edit' ? hosts?.find((h) => h.id === open.hostId) : undefined;
  return (
    <HostPanelsContext.Provider value={panels}>
      {children}
      <Suspense fallback={null}>
        {open?.kind === 'drawer' && (
          <HostDrawer
            key={open.seq}
            hostId={open.hostId}
            onClose={close}
            onExpand={() => panels.openHost(open.hostId, { expanded: true })}
            onEdit={() => panels.editHost(open.hostId)}
          />
        )}
        {open?.kind === 'modal' && (
          <HostDetailModal key={open.seq} hostId={open.hostId} onClose={close} />
        )}
        {editing !== undefined && <HostFormDialog host={editing} onClose={close} />}
      </Suspense>
    </HostPanelsContext.Provider>
  );
}
