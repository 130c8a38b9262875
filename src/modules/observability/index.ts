export { ObservabilityModule } from './observability.module.js';
export { MetricsService } from './metrics.service.js';
export { CLIENT_CLOSED, HttpMetrics, UNMATCHED_ROUTE } from './http-metrics.js';
export { MetricsController } from './metrics.controller.js';
export { MetricsListener } from './metrics-listener.js';
export { HealthController } from './health.controller.js';
export { REDIS_TOKEN } from './observability.tokens.js';
export { NoApiController } from './no-api.controller.js';
export { FINISHED_STATUS_LABELS } from './metric-labels.js';
export type {
  CallbackOutcomeLabel,
  DbErrorKindLabel,
  ExecutionOutcomeLabel,
  FinishedStatusLabel,
  LabelsMatch,
  LeaseExpiryReasonLabel,
  LogDropReason,
  MisfirePolicyLabel,
  NotificationChannelLabel,
  NotificationOutcomeLabel,
  ProgressWriteOutcome,
  QuarantineReasonLabel,
  RedisErrorKindLabel,
  RetentionTableLabel,
  ShardMoveKindLabel,
} from './metric-labels.js';
