export type {
  ContainerSnapshot,
  EngineDisk,
  EnginePurpose,
  Fleet,
  FleetEvent,
  FleetEventMap,
  FleetHost,
  FleetHostMetrics,
  FleetListener,
  HostRuntime,
} from './fleet.js';
export { MonitorService, type MonitorDeps } from './monitor.service.js';
export { agentEngineDisk } from './engine-disk.js';
export { createContainerStatesStore, type ContainerStatesStore } from './container-states.store.js';
