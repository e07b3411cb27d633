export {
  actorOf,
  bearerOf,
  createAuthGuard,
  SESSION_COOKIE,
  sessionOf,
  type ApiKeyAuthenticator,
  type ApiKeyIdentity,
  type Principal,
} from './auth.guard.js';
export { protectedAuthRoutes, publicAuthRoutes } from './auth.routes.js';
export {
  AuthService,
  roleOf,
  SECOND_FACTOR_REQUIRED,
  toUserResponse,
  type ClientInfo,
  type SecondFactorVerdict,
  type SessionContext,
  type SignInChecks,
  type SignInMethod,
} from './auth.service.js';
export { hostScopeOf, scopeReaches, type HostScope } from './host-scope.js';
export { hashPassword } from './password.js';
export { createAuthStore } from './auth.store.js';
export { resetPassword, type PasswordReset } from './password-reset.js';
export {
  permissionOf,
  registerRoutePermissions,
  roleAllows,
  scopeAllows,
  scopeNeeded,
  type Permission,
} from './permissions.js';
