export { ssoPublicRoutes, ssoSettingsRoutes, type SsoRoutesOptions } from './sso.routes.js';
export { SsoService, type SsoDeps } from './sso.service.js';
export { type SsoUsers } from './sso.ports.js';
export { roleFromClaims } from './sso.rules.js';
export { createSsoStore, type SsoStore } from './sso.store.js';
