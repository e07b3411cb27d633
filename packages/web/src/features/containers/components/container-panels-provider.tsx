import { lazy, Suspense, useMemo, useState, type ReactNode } from 'react';
import {
  ContainerPanelsContext,
  type ContainerDetailTab,
  type ContainerPanels,
} from '@/lib/container-panels';

// Loaded on first use, so neither panel weighs on a screen's first load.
const ContainerDrawer = lazy(async () => ({
  default: (await import('./drawer/container-drawer')).ContainerDrawer,
}));
const ContainerDetailDialog = lazy(async () => ({
  default: (await import('./detail/container-detail-dialog')).ContainerDetailDialog,
}));

type Open = { view: 'drawer' | 'detail'; key: string; tab: ContainerDetailTab; seq: number };

/** Holds the container drawer and detail dialog for every screen (see lib/container-panels). */
export function ContainerPanelsProvider({ children }: { children: ReactNode }) {
  const [open, setOpen] = useState<Open | null>(null);
  const panels = useMemo<ContainerPanels>(
    () => ({
      openContainer: (key, options) =>
        setOpen((prev) => ({
          view: options?.view ?? 'drawer',
          key,
          tab: options?.tab ?? 'info',
          seq: (prev?.seq ?? 0) + 1,
        })),
    }),
    [],
  );
  const close = () => setOpen(null);
  return (
    <ContainerPanelsContext.Provider value={panels}>
      {children}
      <Suspense fallback={null}>
        {open?.view === 'drawer' && (
          <ContainerDrawer
            key={open.seq}
            containerKey={open.key}
            onClose={close}
            onExpand={() => panels.openContainer(open.key, { view: 'detail' })}
          />
        )}
        {open?.view === 'detail' && (
          <ContainerDetailDialog
            key={open.seq}
            containerKey={open.key}
            tab={open.tab}
            onClose={close}
          />
        )}
      </Suspense>
    </ContainerPanelsContext.Provider>
  );
}
