import { DynamicModule, Module, Type } from '@nestjs/common';
import { DispatchModule } from '../dispatch/index.js';
import { MetadataModule } from '../metadata/index.js';
import { AuditModule } from './audit/audit.module.js';
import { ClientJobs } from './client-jobs.service.js';
import { CrontabImportService } from './crontab-import.service.js';
import { CallbackUrlCheck } from './callback-url-check.service.js';
import { HandlerCheckService } from './handler-check.service.js';
import { JobRunsService } from './job-runs.service.js';
import { JobsService } from './jobs.service.js';
import { TaskCapService } from './task-cap.service.js';

const SERVICES = [
  JobsService,
  JobRunsService,
  CrontabImportService,
  HandlerCheckService,
  TaskCapService,
  CallbackUrlCheck,
  ClientJobs,
];

/**
 * The job lifecycle as a domain (docs/architecture.md, modules), with the checks it shares with tasks and the
 * audit trail. No HTTP: it throws the errors of common/errors, which the API maps to answers.
 */
@Module({})
export class JobsModule {
  /**
   * @param trigger the app's one TriggerModule.forRoot(...) instance (staging, trigger-now, backfill).
   * @param appLimits a module exporting {@link APP_LIMITS} (the api role's client cache).
   */
  static forRoot(trigger: DynamicModule, appLimits: Type<unknown> | DynamicModule): DynamicModule {
    return {
      module: JobsModule,
      imports: [MetadataModule, DispatchModule, AuditModule, trigger, appLimits],
      providers: SERVICES,
      exports: [...SERVICES, AuditModule],
    };
  }
}
