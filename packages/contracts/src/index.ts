import './browser-csp.js';

export * from './agents.js';
export * from './api-keys.js';
export * from './alert-rules.js';
export * from './alerts.js';
export * from './auth.js';
export * from './batch.js';
export * from './common.js';
export * from './containers.js';
export * from './engine-address.js';
export * from './events.js';
export * from './health-checks.js';
export * from './hosts.js';
export * from './live.js';
export * from './notifications.js';
export * from './preferences.js';
export * from './settings.js';
export * from './updates.js';
