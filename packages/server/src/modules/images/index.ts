export { ImagePulls, type ImagePullDeps } from './image-pull.js';
export { imagesRoutes } from './images.routes.js';
export { ImagesService } from './images.service.js';
