import { LoginPage } from '@/features/auth';
import { createBrowserRouter, Navigate, RouterProvider } from 'react-router';
import { paths } from './paths';
import { ProtectedRoute, PublicOnlyRoute } from './protected-route';
import { AppShell } from './shell/app-shell';

/** Screens load lazily, one chunk per feature; the login screen comes with the shell. */
const router = createBrowserRouter([
  {
    element: <PublicOnlyRoute />,
    children: [{ path: paths.login, element: <LoginPage /> }],
  },
  {
    element: <ProtectedRoute />,
    children: [
      {
        element: <AppShell />,
        children: [
          {
            index: true,
            lazy: async () => ({ Component: (await import('@/features/dashboard')).DashboardPage }),
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
            path: paths.logs,
            lazy: async () => ({ Component: (await import('@/features/logs')).LogsPage }),
          },
          {
            path: paths.events,
            lazy: async () => ({ Component: (await import('@/features/events')).EventsPage }),
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
  return <RouterProvider router={router} />;
}
