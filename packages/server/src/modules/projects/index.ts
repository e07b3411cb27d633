export { projectsRoutes } from './projects.routes.js';
export { ProjectsService, type ProjectsDeps } from './projects.service.js';
export { dependsOnOf, groupProjects, startOrder } from './grouping.js';
