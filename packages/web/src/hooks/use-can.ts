import type { User } from '@berth/contracts';
import { useQuery } from '@tanstack/react-query';
import { settingsQueryOptions } from '@/lib/queries';
import { meQueryOptions } from '@/lib/session';

/** What a route needs, as the server's route table (modules/auth/permissions.ts) names it. */
export type Permission = 'read' | 'operate' | 'admin' | 'account';

/** The server's role reach, for hiding what a role cannot do; the server still decides. */
const ROLE_REACH: Record<User['role'], readonly Permission[]> = {
  viewer: ['read', 'account'],
  operator: ['read', 'operate', 'account'],
  admin: ['read', 'operate', 'admin', 'account'],
};

export const roleCan = (role: User['role'] | undefined, permission: Permission): boolean =>
  // Unknown (no user read yet, or a server without roles): show it, the server refuses if need be.
  role === undefined || ROLE_REACH[role].includes(permission);

/**
 * Whether the signed-in user's role reaches a permission. Reads the session the shell already
 * loaded and never fetches it itself.
 */
export function useCan(permission: Permission): boolean {
  const { data: user } = useQuery({ ...meQueryOptions(), enabled: false });
  return roleCan(user?.role, permission);
}

/**
 * Whether the signed-in user may read container logs: viewers only while the `viewer_logs`
 * setting allows it (logs can hold secrets). Until the settings arrive a viewer sees no logs.
 */
export function useCanReadLogs(): boolean {
  const { data: user } = useQuery({ ...meQueryOptions(), enabled: false });
  const viewer = user?.role === 'viewer';
  const { data: settings } = useQuery({ ...settingsQueryOptions(), enabled: viewer });
  return !viewer || settings?.viewer_logs === true;
}

/**
 * Whether the signed-in user may open a container shell (`exec`): admins always, operators
 * while the `exec_operators` setting allows it, viewers never. The server decides again.
 */
export function useCanExec(): boolean {
  const { data: user } = useQuery({ ...meQueryOptions(), enabled: false });
  const operator = user?.role === 'operator';
  const { data: settings } = useQuery({ ...settingsQueryOptions(), enabled: operator });
  return user?.role === 'admin' || (operator && settings?.exec_operators === true);
}
