import { useQueryClient, type QueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { LoginPage } from '@/features/auth/login';
import { createBrowserRouter, Navigate, RouterProvider } from 'react-router';
import { firstScreenLoader } from './first-screen-data';
import { paths } from './paths';
import { ProtectedRoute, PublicOnlyRoute, SessionSkeleton } from './protected-route';

/**
 * Screens load lazily, one chunk per feature, and so does the shell: the entry holds the
 * login screen and the session check only. While a signed-in reload fetches the shell and the
 * screen (and, beside them, the session and the screen's data: lib/preload.ts), the shell's
 * skeleton is painted; the screen is drawn once its first reads are in (first-screen-data.ts).
 */
const createAppRouter = (queryClient: QueryClient) =>
  createBrowserRouter([
    {
      element: <PublicOnlyRoute />,
      children: [{ path: paths.login, element: <LoginPage /> }],
    },
    {
      element: <ProtectedRoute />,
      HydrateFallback: SessionSkeleton,
      children: [
        {
          lazy: async () => ({ Component: (await import('./shell/app-shell')).AppShell }),
          loader: firstScreenLoader(queryClient),
          // Its only work is on the first load; filters in the address must not run it again.
          shouldRevalidate: () => false,
          children: [
            {
              index: true,
              lazy: async () => ({
                Component: (await import('@/features/dashboard')).DashboardPage,
              }),
            },
            {
              path: paths.hosts,
              lazy: async () => ({ Component: (await import('@/features/hosts')).HostsPage }),
            },
            {
              path: paths.containers,
              lazy: async () => ({
                Component: (await import('@/features/containers')).ContainersPage,
              }),
            },
            {
              path: paths.projects,
              lazy: async () => ({ Component: (await import('@/features/projects')).ProjectsPage }),
            },
            {
              path: paths.images,
              lazy: async () => ({ Component: (await import('@/features/images')).ImagesPage }),
            },
            {
              path: paths.volumes,
              lazy: async () => ({ Component: (await import('@/features/volumes')).VolumesPage }),
            },
            {
              path: paths.networks,
              lazy: async () => ({ Component: (await import('@/features/networks')).NetworksPage }),
            },
            {
              path: paths.logs,
              lazy: async () => ({ Component: (await import('@/features/logs')).LogsPage }),
            },
            {
              path: paths.events,
              lazy: async () => ({ Component: (await import('@/features/events')).EventsPage }),
            },
            {
              path: paths.audit,
              lazy: async () => ({ Component: (await import('@/features/audit')).AuditPage }),
            },
            {
              path: paths.alerts,
              lazy: async () => ({ Component: (await import('@/features/alerts')).AlertsPage }),
            },
            {
              path: paths.alertRules,
              lazy: async () => ({ Component: (await import('@/features/alerts')).AlertRulesPage }),
            },
            {
              path: paths.settings,
              lazy: async () => ({ Component: (await import('@/features/settings')).SettingsPage }),
            },
          ],
        },
      ],
    },
    { path: '*', element: <Navigate to={paths.dashboard} replace /> },
  ]);

export function AppRouter() {
  const queryClient = useQueryClient();
  const [router] = useState(() => createAppRouter(queryClient));
  return <RouterProvider router={router} />;
}
