import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { APP_CONFIG, AppConfig } from '../../config/index.js';
import { dataSourceOptions } from './data-source-options.js';
import { runMigrations } from './migration-runner.js';
import { ApiClientRepository } from './repositories/api-client.repository.js';
import { AuditLogRepository } from './repositories/audit-log.repository.js';
import { ExecutorNodeRepository } from './repositories/executor-node.repository.js';
import { JobAttemptRepository } from './repositories/job-attempt.repository.js';
import { JobDefinitionRepository } from './repositories/job-definition.repository.js';
import { JobInstanceRepository } from './repositories/job-instance.repository.js';

const REPOSITORIES = [
  JobDefinitionRepository,
  JobInstanceRepository,
  JobAttemptRepository,
  ExecutorNodeRepository,
  ApiClientRepository,
  AuditLogRepository,
];

/**
 * The persistence of the domain (DESIGN §2 `metadata`): the DataSource, migrations (applied before the
 * DataSource is handed to anyone) and the repositories. Other modules use only the repositories.
 */
@Module({
  imports: [
    TypeOrmModule.forRootAsync({
      inject: [APP_CONFIG],
      useFactory: (config: AppConfig) => dataSourceOptions(config),
      dataSourceFactory: async (options) => {
        const ds = await new DataSource(options!).initialize();
        await runMigrations(ds);
        return ds;
      },
    }),
  ],
  providers: REPOSITORIES,
  exports: REPOSITORIES,
})
export class MetadataModule {}
