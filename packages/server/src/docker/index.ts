export { createEngineClient, type EngineEndpoint } from './engine-client.js';
export { describeEngineError, EngineError } from './engine-errors.js';
export { probeEngine, type EngineProbe } from './engine-probe.js';
