import { lazy, Suspense, type ComponentType, type LazyExoticComponent } from 'react';
import type { HostTabSlot } from '@/lib/host-tab-slots';

// Each loaded when a host modal first shows its tab.
const tabs: [string, string, LazyExoticComponent<ComponentType<{ hostId: string }>>][] = [
  [
    'projects',
    'Projects',
    lazy(async () => ({ default: (await import('@/features/projects/host-tab')).HostProjectsTab })),
  ],
  [
    'images',
    'Images',
    lazy(async () => ({ default: (await import('@/features/images/host-tab')).HostImagesTab })),
  ],
  [
    'volumes',
    'Volumes',
    lazy(async () => ({ default: (await import('@/features/volumes/host-tab')).HostVolumesTab })),
  ],
  [
    'networks',
    'Networks',
    lazy(async () => ({ default: (await import('@/features/networks/host-tab')).HostNetworksTab })),
  ],
];

/** The host modal's tabs that other features draw, for `HostTabSlots`. */
export const HOST_TAB_SLOTS: readonly HostTabSlot[] = tabs.map(([value, label, Tab]) => ({
  value,
  label,
  render: (hostId: string) => (
    <Suspense fallback={<p className="text-sm text-slate-400">Loading…</p>}>
      <Tab hostId={hostId} />
    </Suspense>
  ),
}));
