export { twoFactorRoutes } from './two-factor.routes.js';
export { TwoFactorService, type Hold, type TwoFactorDeps } from './two-factor.service.js';
export { createTwoFactorStore } from './two-factor.store.js';
