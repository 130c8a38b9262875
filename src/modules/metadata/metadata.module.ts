import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { DataSource, type DataSourceOptions } from 'typeorm';
import { APP_CONFIG, AppConfig } from '../../config/index.js';
import { dataSourceOptions } from './data-source-options.js';
import { runMigrations } from './migration-runner.js';
import { ApiClientRepository } from './repositories/api-client.repository.js';
import { AuditLogRepository } from './repositories/audit-log.repository.js';
import { ExecutionLedgerRepository } from './repositories/execution-ledger.repository.js';
import { ExecutorNodeRepository } from './repositories/executor-node.repository.js';
import { JobAttemptRepository } from './repositories/job-attempt.repository.js';
import { JobDefinitionRepository } from './repositories/job-definition.repository.js';
import { JobInstanceRepository } from './repositories/job-instance.repository.js';

/** Names the setting and target of a failed connection, password masked. */
function describeDatabase(o: DataSourceOptions): string {
  if (o.type === 'mysql') return `DB_URL=${String(o.url).replace(/:\/\/([^:@/]+):[^@/]*@/, '://$1:***@')}`;
  return `(SQLite file ${String(o.database)}; DATA_DIR)`;
}

const REPOSITORIES = [
  JobDefinitionRepository,
  JobInstanceRepository,
  JobAttemptRepository,
  ExecutorNodeRepository,
  ApiClientRepository,
  AuditLogRepository,
  ExecutionLedgerRepository,
];

/**
 * The persistence of the domain (DESIGN §2 `metadata`): the DataSource, migrations (applied before the
 * DataSource is handed to anyone) and the repositories. Other modules use only the repositories.
 */
@Module({
  imports: [
    TypeOrmModule.forRootAsync({
      inject: [APP_CONFIG],
      // A database still starting (compose, Kubernetes) gets ~10 s; then start-up stops naming the setting.
      useFactory: (config: AppConfig) => ({ ...dataSourceOptions(config), retryAttempts: 5, retryDelay: 2000 }),
      dataSourceFactory: async (options) => {
        const ds = await new DataSource(options!).initialize().catch((err: Error) => {
          throw new Error(`cannot open the database ${describeDatabase(options!)}: ${err.message}`);
        });
        await runMigrations(ds);
        return ds;
      },
    }),
  ],
  providers: REPOSITORIES,
  exports: REPOSITORIES,
})
export class MetadataModule {}
