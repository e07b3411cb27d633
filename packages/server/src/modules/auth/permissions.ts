import type { ApiKeyScope, UserRole } from '@berth/contracts';
import type { FastifyInstance } from 'fastify';

/**
 * What a caller needs to call a route.
 * - `public`: anyone (probes, the sign-in itself, agents with their own token or secret);
 * - `read`: lists and reads;
 * - `operate`: container actions, batch jobs, updates and alert actions;
 * - `admin`: every other change (settings, hosts, rules, channels, policies);
 * - `account`: the caller's own sign-in (password, profile, sign-out, API keys) and own view
 *   (preferences, dismissed notices): every role, but a signed-in session only, never an API
 *   key, so a leaked key cannot mint keys or take the account.
 */
export type Permission = 'public' | 'read' | 'operate' | 'admin' | 'account';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Filled from ROUTE_PERMISSIONS when the route is registered. */
    permission?: Permission;
    /** Set on the routes of LOG_READS when they are registered. */
    showsLogs?: boolean;
  }
}

const OPERATE = [
  'POST /api/hosts/:hostId/containers/:containerId/:action',
  'POST /api/batch',
  'POST /api/hosts/:hostId/projects/:project/:action',
  'POST /api/alerts/:id/annotations',
  'POST /api/alerts/:id/resolve',
  'POST /api/alerts/:id/snooze',
  'POST /api/alerts/:id/unsnooze',
  'POST /api/updates/check-all',
  'POST /api/hosts/:hostId/containers/:containerId/check-update',
  'POST /api/hosts/:hostId/containers/:containerId/execute-update',
  'POST /api/hosts/:hostId/containers/:containerId/rollback-update',
  'POST /api/containers/:hostId/:containerId/http-health-check/test',
  // Images: day-to-day care of what the hosts run, as updates are (decision 041). The engine
  // refuses to remove what a running container uses, and a prune takes only dangling images.
  'POST /api/hosts/:hostId/images/pull',
  'POST /api/hosts/:hostId/images/pull/cancel',
  'POST /api/hosts/:hostId/images/prune',
  'DELETE /api/hosts/:hostId/images/:imageId',
];

const ACCOUNT = [
  'POST /api/v2/auth/logout',
  'POST /api/v2/auth/change-password',
  'POST /api/v2/auth/update-profile',
  'GET /api/api-keys',
  'POST /api/api-keys',
  'DELETE /api/api-keys/:id',
  // The caller's own view of Berth: every role keeps its own preferences and notices.
  'PATCH /api/v2/user/preferences',
  'POST /api/user/view-mode',
  'POST /api/user/event-sort-order',
  'POST /api/user/dismiss-dockmon-update',
  'POST /api/user/dismiss-update',
  'POST /api/upgrade-notice/dismiss',
  // The caller's own two-factor sign-in.
  'GET /api/account/two-factor',
  'POST /api/account/two-factor/enrol',
  'POST /api/account/two-factor/confirm',
  'POST /api/account/two-factor/disable',
  'POST /api/account/two-factor/recovery-codes',
  // The caller's own sessions: list, end one, end all but this one.
  'GET /api/v2/auth/sessions',
  'DELETE /api/v2/auth/sessions/:id',
  'POST /api/v2/auth/sessions/end-others',
];

/**
 * Admin only, reads included: who did what is not for every reader, nor who may sign in.
 * (Other changes are `admin` by default; the users routes are listed so the table says so.)
 */
const ADMIN = [
  'GET /api/audit',
  'GET /api/audit/export.csv',
  // What was typed in container shells: passwords typed at a prompt included.
  'GET /api/exec/recordings',
  'GET /api/exec/recordings/:id',
  'GET /api/users',
  'POST /api/users',
  'PATCH /api/users/:id',
  'DELETE /api/users/:id',
  'POST /api/users/:id/reset-password',
  'POST /api/users/:id/end-sessions',
  'POST /api/users/:id/reset-two-factor',
  'GET /api/settings/two-factor',
  'PUT /api/settings/two-factor',
  'GET /api/sessions',
  'DELETE /api/sessions/:id',
  // Single sign-on's settings name the provider and its client.
  'GET /api/v2/auth/sso/settings',
];

/**
 * Reads that show container logs, which can hold secrets (tokens printed at start-up,
 * connection strings): a viewer reaches them only while the `viewer_logs` setting allows it.
 */
const LOG_READS = ['GET /api/hosts/:hostId/containers/:containerId/logs'];

const PUBLIC = [
  'GET /api/health',
  'POST /api/v2/auth/login',
  // Single sign-on: the login page's view, the start, and the provider's redirect back.
  'GET /api/v2/auth/sso',
  'GET /api/v2/auth/sso/start',
  'GET /api/v2/auth/sso/callback',
  'POST /api/agents/enroll',
  'GET /api/agents/connect',
];

/**
 * Every API route's permission, in one table that a reviewer reads at once. Reads need
 * `read` and other changes `admin` unless listed above; a route missing from the app's
 * lists is still decided here, so registering one can never leave it undeclared.
 */
export function permissionOf(method: string, url: string): Permission {
  // A HEAD runs the GET's handler, so it needs what the GET needs (public probes included).
  const route = `${method === 'HEAD' ? 'GET' : method} ${url}`;
  if (PUBLIC.includes(route)) return 'public';
  if (ACCOUNT.includes(route)) return 'account';
  if (OPERATE.includes(route)) return 'operate';
  if (ADMIN.includes(route)) return 'admin';
  return method === 'GET' || method === 'HEAD' ? 'read' : 'admin';
}

/** Whether a route shows container logs (see LOG_READS). */
export const showsLogs = (method: string, url: string): boolean =>
  LOG_READS.includes(`${method === 'HEAD' ? 'GET' : method} ${url}`);

const STRICTNESS: readonly Permission[] = ['public', 'read', 'operate', 'admin', 'account'];

/** The routes a scope reaches: each scope includes the ones below it. */
const SCOPE_REACH: Record<ApiKeyScope, readonly Permission[]> = {
  read: ['public', 'read'],
  operate: ['public', 'read', 'operate'],
  admin: ['public', 'read', 'operate', 'admin'],
};

export const scopeAllows = (scope: ApiKeyScope, permission: Permission): boolean =>
  SCOPE_REACH[scope].includes(permission);

/** The routes a role reaches: every signed-in user manages their own account. */
const ROLE_REACH: Record<UserRole, readonly Permission[]> = {
  viewer: ['public', 'read', 'account'],
  operator: ['public', 'read', 'operate', 'account'],
  admin: ['public', 'read', 'operate', 'admin', 'account'],
};

export const roleAllows = (role: UserRole, permission: Permission): boolean =>
  ROLE_REACH[role].includes(permission);

/**
 * `exec`: a shell in a container, which reaches everything the container does (its secrets,
 * its volumes, the networks behind it). Admins always; operators only while the
 * `exec_operators` setting grants it; viewers never. Not a route permission: the shell's
 * socket lives outside /api, beside the live channel, and checks this itself.
 */
export const EXEC_PERMISSION = 'exec';
export const mayExec = (role: UserRole, operatorsMayExec: boolean): boolean =>
  role === 'admin' || (role === 'operator' && operatorsMayExec);

/** The narrowest scope that reaches a permission (named in a 403), or null for none. */
export function scopeNeeded(permission: Permission): ApiKeyScope | null {
  if (permission === 'account') return null;
  return (['read', 'operate', 'admin'] as const).find((s) => scopeAllows(s, permission)) ?? null;
}

/**
 * Stamps every /api route with its permission as it is registered (an explicit one in the
 * route's config wins), so guards read it from the route, never decide it in handlers.
 */
export function registerRoutePermissions(app: FastifyInstance): void {
  app.addHook('onRoute', (route) => {
    if (!route.url.startsWith('/api')) return;
    // A route with several methods needs the strictest of theirs.
    const strictest = [route.method]
      .flat()
      .map((method) => permissionOf(method, route.url))
      .reduce((a, b) => (STRICTNESS.indexOf(b) > STRICTNESS.indexOf(a) ? b : a), 'public');
    const logs = [route.method].flat().some((method) => showsLogs(method, route.url));
    route.config = {
      ...route.config,
      permission: route.config?.permission ?? strictest,
      ...(logs ? { showsLogs: true } : {}),
    };
  });
}
