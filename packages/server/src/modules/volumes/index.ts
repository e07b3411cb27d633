export { volumesRoutes, hostsToRead } from './volumes.routes.js';
export { VolumesService, VOLUME_SIZES_TIMEOUT_MS, type VolumesDeps } from './volumes.service.js';
export {
  containerUses,
  dependantOf,
  engineAnswer,
  hostEngine,
  inTurns,
  isRunning,
  pruneSkipReason,
  readHosts,
  statusOf,
  type ContainerUse,
} from './resource-engine.js';
