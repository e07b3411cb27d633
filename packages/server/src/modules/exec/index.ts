export { registerExecChannel, type ExecChannelOptions } from './exec.socket.js';
export { ExecService, type ExecCaller, type ExecServiceDeps } from './exec.service.js';
export { ExecSession, OUTPUT_HIGH_WATER, SESSION_MARK } from './exec-session.js';
export { createExecStore, type ExecStore } from './exec.store.js';
export { runningExecs } from './exec-count.js';
export { ExecRecordings } from './exec-recordings.js';
export { execRecordingsRoutes } from './exec-recordings.routes.js';
