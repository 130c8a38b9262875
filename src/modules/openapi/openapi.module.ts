import { DynamicModule, Module } from '@nestjs/common';
import { APP_FILTER, APP_GUARD, APP_INTERCEPTOR } from '@nestjs/core';
import { CallbacksApiModule } from '../callbacks/index.js';
import { NotificationRulesModule } from '../notifications/index.js';
import { NotificationRulesController } from './controllers/notification-rules.controller.js';
import { CoordinationModule } from '../coordination/index.js';
import { DispatchModule } from '../dispatch/index.js';
import { MetadataModule } from '../metadata/index.js';
import { ApiClientModule } from './auth/api-client.module.js';
import { RateLimiter } from './auth/rate-limiter.js';
import { ScopeGuard } from './auth/scope.guard.js';
import { SignatureGuard } from './auth/signature.guard.js';
import { SignedRequestMiddleware } from './auth/signed-request.middleware.js';
import { AuditController } from './controllers/audit.controller.js';
import { CallbacksController } from './controllers/callbacks.controller.js';
import { ClientsController } from './controllers/clients.controller.js';
import { JobsController } from './controllers/jobs.controller.js';
import { NodesController } from './controllers/nodes.controller.js';
import { NotificationsController } from './controllers/notifications.controller.js';
import { OverviewController } from './controllers/overview.controller.js';
import { SchedulesController } from './controllers/schedules.controller.js';
import { TasksController } from './controllers/tasks.controller.js';
import { WorkerController } from './controllers/worker.controller.js';
import { BodyItemsInterceptor } from './filters/body-items.interceptor.js';
import { AnswerDeadlineInterceptor } from './filters/answer-deadline.interceptor.js';
import { ProblemDetailsFilter } from './filters/problem-details.filter.js';
import { IdempotencyInterceptor } from './idempotency/idempotency.interceptor.js';
import { QueryParamsInterceptor } from './filters/query-params.interceptor.js';
import { ClientsService } from './services/clients.service.js';
import { HandlerLogsService } from './services/handler-logs.service.js';
import { JobViews } from './services/job-views.service.js';
import { NodeViewsService } from './services/node-views.service.js';
import { OverviewService } from './services/overview.service.js';
import { ReadGate } from './services/read-gate.js';
import { ScheduleLoadService } from './services/schedule-load.service.js';
import { TaskListService } from './services/task-list.service.js';
import { TasksService } from './services/tasks.service.js';

/**
 * The HTTP surface of the api role (docs/architecture.md, modules; docs/api.md): signed /api routes, each
 * needing a scope (ScopeGuard, after the signature check), problem+json errors. Requests are
 * authenticated, rate-limited and their bodies parsed (depth ≤ 64) by the SignedRequestMiddleware, which
 * createApp mounts before every route (bootstrap.ts); the SignatureGuard refuses what reached an /api
 * route without it. Controllers map DTOs to calls of the jobs domain (passed in by the app module) and
 * its answers to views.
 */
@Module({})
export class OpenApiModule {
  /**
   * @param jobs the app's one JobsModule.forRoot(...) instance.
   * @param workers the app's WorkersModule.forRoot(...) (the app workers' routes, docs/workers.md).
   */
  static forRoot(jobs: DynamicModule, workers: DynamicModule): DynamicModule {
    return {
      module: OpenApiModule,
      imports: [
        MetadataModule,
        CoordinationModule,
        DispatchModule,
        ApiClientModule,
        jobs,
        workers,
        CallbacksApiModule.forRoot(jobs),
        NotificationRulesModule.forRoot(jobs),
      ],
      controllers: [
        TasksController,
        JobsController,
        NodesController,
        ClientsController,
        AuditController,
        CallbacksController,
        SchedulesController,
        WorkerController,
        OverviewController,
        NotificationRulesController,
        NotificationsController,
      ],
      providers: [
        TasksService,
        ClientsService,
        HandlerLogsService,
        JobViews,
        TaskListService,
        OverviewService,
        NodeViewsService,
        ScheduleLoadService,
        ReadGate,
        RateLimiter,
        SignedRequestMiddleware,
        // Guards run in this order: who is calling (the middleware checked it; this is the backstop), then
        // what it may do.
        { provide: APP_GUARD, useClass: SignatureGuard },
        { provide: APP_GUARD, useClass: ScopeGuard },
        // A query parameter on a route that takes none (QueryParamsInterceptor), then an over-long array: both
        // before the Idempotency-Key is taken and the validation pipe runs.
        { provide: APP_INTERCEPTOR, useClass: QueryParamsInterceptor },
        // An over-long array is refused before the validation pipe (the body's depth was checked on parsing).
        { provide: APP_INTERCEPTOR, useClass: BodyItemsInterceptor },
        // Idempotency-Key (docs/api.md "Idempotency"): after the guards, around the pipes and the route.
        { provide: APP_INTERCEPTOR, useClass: IdempotencyInterceptor },
        // Inside it, so a route cut at the answer deadline still releases its Idempotency-Key.
        { provide: APP_INTERCEPTOR, useClass: AnswerDeadlineInterceptor },
      ],
      exports: [ApiClientModule, SignedRequestMiddleware],
    };
  }
}

/** Problem+json for every route of the process (health and metrics included), whatever the roles. */
export const PROBLEM_FILTER_PROVIDER = { provide: APP_FILTER, useClass: ProblemDetailsFilter };
