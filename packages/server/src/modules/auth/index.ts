export {
  actorOf,
  bearerOf,
  createAuthGuard,
  SESSION_COOKIE,
  sessionOf,
  type ApiKeyAuthenticator,
  type AuthGuardOptions,
  VIEWER_LOGS_OFF,
  type ApiKeyIdentity,
  type Principal,
} from './auth.guard.js';
export { clientOf, protectedAuthRoutes, publicAuthRoutes } from './auth.routes.js';
export {
  AuthService,
  roleOf,
  SECOND_FACTOR_REQUIRED,
  SESSION_MAX_AGE_MS,
  toUserResponse,
  type ClientInfo,
  type SecondFactorVerdict,
  type SessionHold,
  type SessionContext,
  type SignInChecks,
  type SignInMethod,
} from './auth.service.js';
export { sessionsRoutes, type SessionsRoutesOptions } from './sessions.routes.js';
export { SessionsService, type SessionsPorts } from './sessions.service.js';
export { hostScopeOf, scopeReaches, type HostScope } from './host-scope.js';
export {
  reachableEntries,
  reachOf,
  registerHostReach,
  scopeOf,
  type HostReach,
  type HostTagLookup,
} from './host-reach.js';
export { hashPassword } from './password.js';
export { createAuthStore, type AuthStore } from './auth.store.js';
export { resetPassword, type PasswordReset } from './password-reset.js';
export {
  EXEC_PERMISSION,
  mayExec,
  permissionOf,
  registerRoutePermissions,
  roleAllows,
  scopeAllows,
  scopeNeeded,
  showsLogs,
  type Permission,
} from './permissions.js';
