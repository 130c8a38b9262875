import { DynamicModule, Module, Provider } from '@nestjs/common';
import { DiscoveryModule } from '@nestjs/core';
import { CoordinationModule } from '../coordination/coordination.module.js';
import { APP_EGRESS_ALLOW, type AppEgressAllow } from '../egress/index.js';
import { AdmissionModule } from '../dispatch/index.js';
import { MetadataModule } from '../metadata/index.js';
import { HttpJobHandler } from './builtin/http.handler.js';
import { NoopJobHandler } from './builtin/noop.handler.js';
import { ShellJobHandler } from './builtin/shell.handler.js';
import { AppScopes } from './app-scopes.service.js';
import { ExecutorService } from './executor.service.js';
import { HandlerRegistry } from './handler-registry.service.js';
import { TaskRunner } from './task-runner.service.js';

/** Options of {@link ExecutionModule.forRoot}. */
export interface ExecutionModuleOptions {
  /** Register the built-in `http` handler (default true). */
  http?: boolean;
  /** Register the built-in `shell` handler (TICKWHEEL_ALLOW_SHELL; default false). */
  shell?: boolean;
}

/** The built-in handler providers for `opts`: `noop` always, `http` unless turned off, `shell` only when allowed. */
export function builtinHandlers(opts: ExecutionModuleOptions = {}): Provider[] {
  return [NoopJobHandler, ...(opts.http !== false ? [HttpJobHandler] : []), ...(opts.shell ? [ShellJobHandler] : [])];
}

/**
 * The executor role (DESIGN §2 `execution`). It runs every `@JobHandler` provider of the application it
 * is imported into, so a business Nest app can import it and serve only its own handlers (see
 * examples/). Built-ins: `noop` always, `http` and `shell` per option.
 */
@Module({})
export class ExecutionModule {
  static forRoot(opts: ExecutionModuleOptions = {}): DynamicModule {
    const builtins = builtinHandlers(opts);
    return {
      module: ExecutionModule,
      imports: [DiscoveryModule, MetadataModule, CoordinationModule, AdmissionModule],
      providers: [
        HandlerRegistry, AppScopes, TaskRunner, ExecutorService, ...builtins,
        // An app's own egress allow-list (api_client.egress_allow) narrows its http calls (README "Egress policy").
        { provide: APP_EGRESS_ALLOW, useFactory: (apps: AppScopes): AppEgressAllow => (appId) => apps.egressAllowOf(appId), inject: [AppScopes] },
      ],
      exports: [ExecutorService, HandlerRegistry],
    };
  }
}
