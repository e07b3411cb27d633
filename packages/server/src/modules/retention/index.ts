export { RetentionService, type RetentionDeps, type RetentionReport } from './retention.service.js';
