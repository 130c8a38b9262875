import { DynamicModule, Module, Provider, Type } from '@nestjs/common';
import { LoggerModule } from 'nestjs-pino';
import { Clock } from './common/index.js';
import { CallbackSenderModule } from './modules/callbacks/index.js';
import { AppConfig, CoreModule, Role } from './config/index.js';
import { CoordinationModule, REDIS_CLIENT } from './modules/coordination/index.js';
import { AdmissionModule, DispatchModule } from './modules/dispatch/index.js';
import { EgressModule } from './modules/egress/index.js';
import { ExecutionModule } from './modules/execution/index.js';
import { MetadataModule } from './modules/metadata/index.js';
import { NotificationEvaluatorModule, NotificationSenderModule } from './modules/notifications/index.js';
import { JobsModule } from './modules/jobs/index.js';
import { HealthController, NoApiController, ObservabilityModule, REDIS_TOKEN } from './modules/observability/index.js';
import { ConsoleModule } from './modules/console/index.js';
import { ApiClientModule, OpenApiModule, PROBLEM_FILTER_PROVIDER } from './modules/openapi/index.js';
import { AttemptEndedHookModule, TriggerModule } from './modules/trigger/index.js';
import { WorkersModule } from './modules/workers/index.js';
import { TracingModule } from './modules/tracing/index.js';
import { TerminusModule } from '@nestjs/terminus';
import { ShutdownHold } from './shutdown-hold.js';

/** Options for {@link AppModule.forRoles}; tests pass extra providers (their own handlers) and a clock. */
export interface AppModuleOptions {
  clock?: Clock;
  /** Extra modules to import, e.g. a module with the application's own @JobHandler providers. */
  imports?: Array<DynamicModule | Type<unknown>>;
}

/**
 * The application for a set of roles (docs/architecture.md): metadata, coordination, observability and health always;
 * `api` adds the signed HTTP API, `scheduler` the leader's loops, `executor` the worker pool. A role that
 * is off is not instantiated at all.
 */
@Module({})
export class AppModule {
  static forRoles(config: AppConfig, opts: AppModuleOptions = {}): DynamicModule {
    const has = (r: Role) => config.roles.includes(r);
    const trigger = TriggerModule.forRoot({ scheduler: has(Role.SCHEDULER) });
    const imports: Array<DynamicModule | Type<unknown>> = [
      CoreModule.forConfig(config, opts.clock),
      EgressModule.forConfig(config),
      // No per-request logger (forRoutes: none): nothing logs per request, no answer carries pino-http's reqId,
      // and its child loggers and AsyncLocalStorage context cost every request CPU (bench/README.md).
      LoggerModule.forRoot({ pinoHttp: { level: config.logLevel, autoLogging: false }, forRoutes: [] }),
      ObservabilityModule.forConfig(config),
      TracingModule,
      TerminusModule,
      MetadataModule,
      CoordinationModule,
      DispatchModule,
    ];
    if (has(Role.SCHEDULER) || has(Role.API)) imports.push(trigger);
    if (has(Role.SCHEDULER))
      imports.push(CallbackSenderModule, NotificationSenderModule, NotificationEvaluatorModule.forRoot(trigger));
    const hooks = { attemptEnded: AttemptEndedHookModule, admission: AdmissionModule };
    if (has(Role.API)) {
      // The job lifecycle (domain) and its HTTP surface; job owners' caps are read through the API's client cache.
      // App workers' routes use execution's writers (WorkersModule), never an executor of the api's own.
      const jobs = JobsModule.forRoot(trigger, ApiClientModule);
      imports.push(jobs, OpenApiModule.forRoot(jobs, WorkersModule.forRoot(hooks)), ConsoleModule);
    }
    if (has(Role.EXECUTOR)) {
      const execution = { http: true, shell: config.allowShell };
      imports.push(ExecutionModule.forRoot(execution, hooks));
    }
    imports.push(...(opts.imports ?? []));
    const providers: Provider[] = [
      PROBLEM_FILTER_PROVIDER,
      { provide: REDIS_TOKEN, useExisting: REDIS_CLIENT },
      ShutdownHold,
    ];
    return {
      module: AppModule,
      imports,
      controllers: [HealthController, ...(has(Role.API) ? [] : [NoApiController])],
      providers,
    };
  }
}
