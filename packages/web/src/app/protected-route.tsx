import { useQuery } from '@tanstack/react-query';
import { Navigate, Outlet, useLocation } from 'react-router';
import { Skeleton } from '@/components/ui/skeleton';
import { meQueryOptions } from '@/lib/session';
import { paths } from './paths';
import { isUnreachable, Unreachable } from './unreachable';

/** The current user, or null when signed out (a 401 is an answer, not an error). */
export function useCurrentUser() {
  return useQuery(meQueryOptions());
}

/** The shell and a page skeleton, painted while the session and the screen's code arrive. */
export function SessionSkeleton() {
  return (
    <div
      className="flex h-full max-md:flex-col"
      aria-busy="true"
      aria-label="Checking your session"
    >
      {/* Drawn before a script runs, so sized by CSS alone: a phone's top bar, a tablet's
          collapsed sidebar, a desktop's sidebar (app/shell/app-shell.tsx). */}
      <div className="w-60 border-r border-slate-800 p-4 max-lg:w-16 max-lg:overflow-hidden max-md:h-14 max-md:w-full max-md:border-r-0 max-md:border-b">
        <Skeleton className="h-8 w-32" />
      </div>
      <div className="flex-1 space-y-4 p-8 max-md:p-4">
        <Skeleton className="h-8 w-48" />
        <Skeleton className="h-32 w-full" />
        <Skeleton className="h-32 w-full" />
      </div>
    </div>
  );
}

/** Protected area: a skeleton while the session is checked, /login without one. */
export function ProtectedRoute() {
  const { data: user, isPending, error, refetch } = useCurrentUser();
  const location = useLocation();
  if (isPending) return <SessionSkeleton />;
  // Not a signed-out answer: no answer at all (offline, opened from the worker's cache).
  if (user === undefined && isUnreachable(error)) return <Unreachable onRetry={refetch} />;
  if (!user)
    return (
      <Navigate
        to={paths.login}
        replace
        state={{ from: `${location.pathname}${location.search}` }}
      />
    );
  return <Outlet />;
}

/**
 * /login: the form at once, the session checked behind it; straight on (to where a protected
 * route sent the user from) when a session turns out to exist.
 */
export function PublicOnlyRoute() {
  const { data: user } = useCurrentUser();
  const from = (useLocation().state as { from?: string } | null)?.from ?? paths.dashboard;
  if (user) return <Navigate to={user.is_first_login ? paths.dashboard : from} replace />;
  return <Outlet />;
}
