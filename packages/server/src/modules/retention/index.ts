export {
  nextStepSize,
  RetentionService,
  type RetentionDeps,
  type RetentionReport,
} from './retention.service.js';
