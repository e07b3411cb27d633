export { usersRoutes } from './users.routes.js';
export { UsersService, type UsersPorts } from './users.service.js';
export { createUsersStore } from './users.store.js';
