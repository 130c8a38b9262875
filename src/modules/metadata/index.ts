export * from './entities/index.js';
export * from './state-machine/job-instance-status.js';
export * from './state-machine/transitions.js';
export { MetadataModule } from './metadata.module.js';
export { CLOCK_CHECK_INTERVAL_MS, CLOCK_SKEW_WARN_MS, DbClock } from './db-clock.js';
export {
  JobDefinitionRepository,
  type DueRef,
  type JobListFilter,
  type JobSchedule,
  type MetricsJob,
  MetricsSlotTaken,
} from './repositories/job-definition.repository.js';
export * from './instances/index.js';
export {
  JobAttemptRepository,
  type EndedAttempt,
  type HandlerEnd,
  type StartedAttempt,
} from './repositories/job-attempt.repository.js';
export { ExecutionLedger, type ClaimedInstance } from './unit-of-work/execution-ledger.js';
export { type Tx, UnitOfWork, type UnitOfWorkOptions } from './unit-of-work/unit-of-work.js';
export * from './state-machine/attempt-status.js';
export { isDbUnavailable, isTransientDbError, isUniqueViolation, withDbRetry } from './repositories/db-errors.js';
export { dbFaultWithin } from './db-deadline.js';
export { ExecutorNodeRepository } from './repositories/executor-node.repository.js';
export { ApiClientRepository } from './repositories/api-client.repository.js';
export { ShellIdentityRepository } from './repositories/shell-identity.repository.js';
export {
  type ReshardProgress,
  type ShardAssignment,
  ShardAssignmentRepository,
  type ShardState,
} from './repositories/shard-assignment.repository.js';
export { AuditLogRepository, type AuditEntry, type AuditQuery } from './repositories/audit-log.repository.js';
export {
  CallbackDeliveryRepository,
  callbackHostOf,
  type DeliveryFilter,
  type DeliveryPatch,
  type DueDelivery,
  type DuePair,
  type FinalInstance,
  type ListedDelivery,
  redelivered,
} from './repositories/callback-delivery.repository.js';
export { CallbackHostRepository, type DownPair, type HostKey } from './repositories/callback-host.repository.js';
export { CallbackHostDeliveries, type DownPairDelivery } from './repositories/callback-host-deliveries.js';
export {
  type DownHost,
  INSTANCE_FINAL,
  type NewNotificationEvent,
  notifiable,
  NotificationEventRepository,
} from './repositories/notification-event.repository.js';
export {
  MESSAGE_SAMPLES,
  type MessageEvent,
  NotificationMessageRepository,
  openKeyOf,
} from './repositories/notification-message.repository.js';
export { NAMESPACE_DEFAULT, NotificationRuleRepository } from './repositories/notification-rule.repository.js';
export { type AppSigning, AppSecretReader, AppSigningError } from './secrets/app-secret-reader.js';
export { SecretBox, standaloneKey } from './secrets/secret-box.js';
export { CallbackRegistrationRepository } from './repositories/callback-registration.repository.js';
export { dataSourceOptions, MIGRATIONS } from './data-source-options.js';
export { runMigrations } from './migration-runner.js';
export { countConnectionFailures, DbErrorCounter, dbErrorKind, type DbErrorKind } from './db-error-count.js';
export { JobLogRepository, type NewLogLine, type StoredLogLine } from './repositories/job-log.repository.js';
export { type RetentionTable } from './repositories/retention-rows.js';
export { STATEMENT_ROWS } from './repositories/raw-statement.js';
export {
  IdempotencyKeyRepository,
  type KeyClaim,
  type StoredAnswer,
} from './repositories/idempotency-key.repository.js';
export {
  channelTarget,
  type DueMessage,
  type NotificationFilter,
  NotificationOutboxRepository,
  storedChannels,
} from './repositories/notification-outbox.repository.js';
export {
  type DueNotificationDelivery,
  NotificationDeliveryRepository,
  type NotificationDeliveryPatch,
} from './repositories/notification-delivery.repository.js';
