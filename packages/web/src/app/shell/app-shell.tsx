import { useQuery } from '@tanstack/react-query';
import { lazy, Suspense, useState } from 'react';
import { Outlet } from 'react-router';
import { ChangePasswordDialog } from '@/features/auth';
import { ContainerPanelsProvider } from '@/features/containers/panels';
import { HostPanelsProvider } from '@/features/hosts/panels';
import { UpgradeNotice, useTimezoneSync } from '@/features/settings/shell';
import { useTwoFactorHold } from '@/features/settings/two-factor';
import { ContainersTableSlot } from '@/lib/containers-table-slot';
import { HostTabSlots } from '@/lib/host-tab-slots';
import { useBreakpoint } from '@/hooks/use-breakpoint';
import { useFirstScreenSettled } from '@/lib/live/first-screen-settled';
import { LiveProvider } from '@/lib/live/live-provider';
import { usePreferences, useUpdatePreferences } from '@/lib/preferences';
import { meQueryOptions } from '@/lib/queries';
import { BlackoutBanner } from './blackout-banner';
import { HOST_TAB_SLOTS } from './host-tabs';
import { NavDrawer } from './nav-drawer';
import { PhoneTopBar } from './phone-top-bar';
import { Sidebar } from './sidebar';
import { TwoFactorHoldDialog } from './two-factor-hold';
import { useWorkerRoutes } from './use-worker-routes';

// Loaded when a host modal first shows its Containers tab.
const ScopedContainers = lazy(async () => ({
  default: (await import('@/features/containers/scoped')).ScopedContainers,
}));

const renderScopedContainers = (hostId: string) => (
  <Suspense fallback={<p className="text-sm text-slate-400">Loading…</p>}>
    <ScopedContainers hostId={hostId} />
  </Suspense>
);

/** The content's padding: narrower on a phone, where every pixel of width counts. */
const MAIN = {
  phone: 'flex-1 overflow-y-auto px-4 py-4',
  wide: 'flex-1 overflow-y-auto px-6 py-6 lg:px-8',
};

/** The frame of every protected screen: sidebar, banner, content, forced password change. */
export function AppShell() {
  const user = useQuery(meQueryOptions()).data;
  const firstLogin = user?.is_first_login === true;
  const prefs = usePreferences(user !== undefined && user !== null && !firstLogin);
  const updatePrefs = useUpdatePreferences();
  const signedIn = user !== undefined && user !== null && !firstLogin;
  // A role that requires two-factor holds an unenrolled user to enrolment, like firstLogin.
  const twoFactor = useTwoFactorHold(signedIn);
  const held = firstLogin || twoFactor.held;
  // Reads the first screen does not show (settings, version, upgrade notice) wait until it is drawn.
  const settled = useFirstScreenSettled();
  useWorkerRoutes();
  useTimezoneSync(signedIn && settled);
  // A phone (under 768 px) has a top bar and the sidebar in a drawer; a tablet (under 1024 px)
  // the sidebar collapsed on its own; a desktop the sidebar as saved.
  const breakpoint = useBreakpoint();
  const phone = breakpoint === 'phone';
  const narrow = breakpoint !== 'desktop';
  const [drawerOpen, setDrawerOpen] = useState(false);
  const closeDrawer = () => setDrawerOpen(false);
  // On a narrow window the toggle opens the sidebar for now, without changing the saved choice.
  const [narrowOpen, setNarrowOpen] = useState(false);
  const saved = prefs.data?.sidebar_collapsed ?? false;
  const collapsed = narrow ? !narrowOpen : saved;
  const toggle = () => {
    if (narrow) setNarrowOpen((open) => !open);
    else updatePrefs.mutate({ sidebar_collapsed: !saved });
  };
  if (!user) return null;
  return (
    <LiveProvider enabled={!held}>
      <div className="flex h-full overflow-hidden">
        {!phone && (
          <Sidebar
            user={user}
            collapsed={collapsed}
            onToggle={toggle}
            firstScreenSettled={settled}
          />
        )}
        <div className="flex min-w-0 flex-1 flex-col">
          {phone && <PhoneTopBar onMenu={() => setDrawerOpen(true)} />}
          <BlackoutBanner />
          <main className={phone ? MAIN.phone : MAIN.wide}>
            {!held && (
              <ContainersTableSlot.Provider value={renderScopedContainers}>
                <HostTabSlots.Provider value={HOST_TAB_SLOTS}>
                  <ContainerPanelsProvider>
                    <HostPanelsProvider>
                      <Outlet />
                    </HostPanelsProvider>
                  </ContainerPanelsProvider>
                </HostTabSlots.Provider>
              </ContainersTableSlot.Provider>
            )}
          </main>
        </div>
      </div>
      {phone && (
        <NavDrawer open={drawerOpen} onOpenChange={setDrawerOpen}>
          <Sidebar
            user={user}
            collapsed={false}
            onToggle={closeDrawer}
            onNavigate={closeDrawer}
            firstScreenSettled={settled}
            drawer
          />
        </NavDrawer>
      )}
      {firstLogin && <ChangePasswordDialog open forced onOpenChange={() => undefined} />}
      {!firstLogin && twoFactor.held && <TwoFactorHoldDialog onDone={twoFactor.done} />}
      <UpgradeNotice enabled={signedIn && settled} />
    </LiveProvider>
  );
}
