export * from './entities/index.js';
export * from './state-machine/job-instance-status.js';
export * from './state-machine/transitions.js';
export { MetadataModule } from './metadata.module.js';
export { JobDefinitionRepository, type DueRef } from './repositories/job-definition.repository.js';
export { JobInstanceRepository, type TransitionGuard } from './repositories/job-instance.repository.js';
export { JobAttemptRepository } from './repositories/job-attempt.repository.js';
export { ExecutionLedgerRepository, type ClaimedInstance, type EndedAttempt, type SucceededAttempt } from './repositories/execution-ledger.repository.js';
export { isTransientDbError, isUniqueViolation, withDbRetry } from './repositories/db-errors.js';
export { ExecutorNodeRepository } from './repositories/executor-node.repository.js';
export { ApiClientRepository } from './repositories/api-client.repository.js';
export { AuditLogRepository, type AuditEntry, type AuditQuery } from './repositories/audit-log.repository.js';
export { dataSourceOptions, MIGRATIONS } from './data-source-options.js';
export { runMigrations } from './migration-runner.js';
/** The transaction handle repositories take inside `transaction()` (opaque to other modules). */
export type { EntityManager as Tx } from 'typeorm';
