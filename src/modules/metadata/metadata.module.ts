import { Module } from '@nestjs/common';
import { getDataSourceToken, TypeOrmModule } from '@nestjs/typeorm';
import { DataSource, type DataSourceOptions } from 'typeorm';
import { APP_CONFIG, AppConfig } from '../../config/index.js';
import { DbClock } from './db-clock.js';
import { countConnectionFailures, DbErrorCounter, type DbErrorKind, type DbErrorSink } from './db-error-count.js';
import { dataSourceOptions } from './data-source-options.js';
import { type DbErrorKindLabel, type LabelsMatch, MetricsService } from '../observability/index.js';
import { runMigrations } from './migration-runner.js';
import { boundStatements } from './db-deadline.js';
import { ApiClientRepository } from './repositories/api-client.repository.js';
import { AuditLogRepository } from './repositories/audit-log.repository.js';
import { CallbackDeliveryRepository } from './repositories/callback-delivery.repository.js';
import { CallbackHostRepository } from './repositories/callback-host.repository.js';
import { NotificationEventRepository } from './repositories/notification-event.repository.js';
import { NotificationMessageRepository } from './repositories/notification-message.repository.js';
import { NotificationRuleRepository } from './repositories/notification-rule.repository.js';
import { CallbackHostDeliveries } from './repositories/callback-host-deliveries.js';
import { CallbackRegistrationRepository } from './repositories/callback-registration.repository.js';
import { AppSecretReader } from './secrets/app-secret-reader.js';
import { ExecutorNodeRepository } from './repositories/executor-node.repository.js';
import { JobAttemptRepository } from './repositories/job-attempt.repository.js';
import { JobDefinitionRepository } from './repositories/job-definition.repository.js';
import { IdempotencyKeyRepository } from './repositories/idempotency-key.repository.js';
import { JobLogRepository } from './repositories/job-log.repository.js';
import { NotificationDeliveryRepository } from './repositories/notification-delivery.repository.js';
import { NotificationOutboxRepository } from './repositories/notification-outbox.repository.js';
import { ShellIdentityRepository } from './repositories/shell-identity.repository.js';
import { ShardAssignmentRepository } from './repositories/shard-assignment.repository.js';
import { INSTANCE_QUERIES } from './instances/index.js';
import { ExecutionLedger } from './unit-of-work/execution-ledger.js';
import { UnitOfWork } from './unit-of-work/unit-of-work.js';

/** Names the setting and target of a failed connection, password masked. */
function describeDatabase(o: DataSourceOptions): string {
  if (o.type === 'mysql') return `DB_URL=${String(o.url).replace(/:\/\/([^:@/]+):[^@/]*@/, '://$1:***@')}`;
  return `(SQLite file ${String(o.database)}; DATA_DIR)`;
}

const _kindLabels: LabelsMatch<DbErrorKind, DbErrorKindLabel> = true;

/** Counts into `tickwheel_db_errors_total` (docs/observability.md). */
function dbErrorSink(metrics: MetricsService): DbErrorSink {
  return (kind) => metrics.dbErrors.inc({ kind });
}

const REPOSITORIES = [
  JobDefinitionRepository,
  ...INSTANCE_QUERIES,
  JobAttemptRepository,
  ExecutorNodeRepository,
  ApiClientRepository,
  AuditLogRepository,
  CallbackDeliveryRepository,
  CallbackRegistrationRepository,
  CallbackHostRepository,
  CallbackHostDeliveries,
  AppSecretReader,
  ExecutionLedger,
  JobLogRepository,
  IdempotencyKeyRepository,
  NotificationEventRepository,
  NotificationMessageRepository,
  NotificationRuleRepository,
  NotificationOutboxRepository,
  NotificationDeliveryRepository,
  ShellIdentityRepository,
  ShardAssignmentRepository,
];

const UNIT_OF_WORK = {
  provide: UnitOfWork,
  useFactory: (ds: DataSource) => UnitOfWork.for(ds),
  inject: [getDataSourceToken()],
};

/**
 * The persistence of the domain (docs/architecture.md): the DataSource, migrations (applied before anyone gets
 * it), one repository per table (job_instance's split by caller: instances/), the unit of work and the execution
 * ledger.
 */
@Module({
  imports: [
    TypeOrmModule.forRootAsync({
      // The CLIs (create-app, import-crontab) open the database without the metrics: nothing to count there.
      inject: [APP_CONFIG, { token: MetricsService, optional: true }],
      // A database still starting (compose, Kubernetes) gets ~10 s; then start-up stops naming the setting.
      useFactory: (config: AppConfig, metrics?: MetricsService) => ({
        ...dataSourceOptions(config),
        ...(metrics ? { logger: new DbErrorCounter(dbErrorSink(metrics)) } : {}),
        retryAttempts: 5,
        retryDelay: 2000,
      }),
      dataSourceFactory: async (options) => {
        const ds = await new DataSource(options!).initialize().catch((err: Error) => {
          throw new Error(`cannot open the database ${describeDatabase(options!)}: ${err.message}`);
        });
        const logger = options!.logger;
        if (logger instanceof DbErrorCounter) countConnectionFailures(ds, logger.sink);
        await runMigrations(ds);
        boundStatements(ds);
        return ds;
      },
    }),
  ],
  providers: [...REPOSITORIES, UNIT_OF_WORK, DbClock],
  exports: [...REPOSITORIES, UnitOfWork, DbClock],
})
export class MetadataModule {}
