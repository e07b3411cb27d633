export { ContainerView, type ContainerViewDeps } from './container-view.service.js';
