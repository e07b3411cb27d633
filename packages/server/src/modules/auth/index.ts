export { createSessionGuard, SESSION_COOKIE, sessionOf } from './auth.guard.js';
export { protectedAuthRoutes, publicAuthRoutes } from './auth.routes.js';
export { AuthService, type SessionContext } from './auth.service.js';
export { createAuthStore } from './auth.store.js';
export { resetPassword, type PasswordReset } from './password-reset.js';
