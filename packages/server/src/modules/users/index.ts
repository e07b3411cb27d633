export { usersRoutes } from './users.routes.js';
export { UsersService, type UsersPorts } from './users.service.js';
export { createUsersStore, type ManagedUserRow } from './users.store.js';
