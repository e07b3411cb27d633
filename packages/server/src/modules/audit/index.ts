export { auditRequests } from './audit.hook.js';
export { auditRoutes } from './audit.routes.js';
export {
  AuditService,
  type AuditDeps,
  type AuditNames,
  type AuditRecord,
} from './audit.service.js';
export { createAuditStore, type AuditStore } from './audit.store.js';
export { csvCell } from './audit-csv.js';
export { auditAction } from './audit-actions.js';
