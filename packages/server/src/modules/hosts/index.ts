export { hostsRoutes, type HostRoutesPorts } from './hosts.routes.js';
export { HostsService, type EngineTarget, type ProbeEngine } from './hosts.service.js';
export { createHostsStore, type HostRow } from './hosts.store.js';
export { registerLocalSocketOnce } from './local-socket.js';
export { registeredHost } from './host-events.js';
export { HostTagIndex } from './host-tag-index.js';
export type {
  HostEvent,
  HostEventMap,
  HostEvents,
  HostListener,
  RegisteredHost,
} from './host-events.js';
