export type {
  ContainerSnapshot,
  EnginePurpose,
  Fleet,
  FleetEvent,
  FleetEventMap,
  FleetHost,
  FleetListener,
} from './fleet.js';
export { MonitorService, type MonitorDeps } from './monitor.service.js';
