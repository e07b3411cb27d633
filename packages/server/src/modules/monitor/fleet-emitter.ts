import { TypedEmitter } from '../../platform/typed-emitter.js';
import type { FleetEventMap } from './fleet.js';

/** Typed listeners of the fleet's events; a listener that throws is isolated. */
export class FleetEmitter extends TypedEmitter<FleetEventMap> {}
