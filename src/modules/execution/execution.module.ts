import { DynamicModule, Module, Provider, Type } from '@nestjs/common';
import { DiscoveryModule } from '@nestjs/core';
import { CoordinationModule } from '../coordination/index.js';
import { APP_EGRESS_ALLOW, type AppEgressAllow } from '../egress/index.js';
import { MetadataModule } from '../metadata/index.js';
import { HttpJobHandler } from './builtin/http.handler.js';
import { NoopJobHandler } from './builtin/noop.handler.js';
import { ShellIdentities } from './builtin/shell-identities.js';
import { ShellJobHandler } from './builtin/shell.handler.js';
import { AppScopes } from './app-scopes.service.js';
import { AppStatesModule } from './app-states.module.js';
import { AttemptExecution } from './attempt-execution.js';
import { ClaimLoop } from './claim-loop.js';
import { ExecutionCoreModule } from './execution-core.module.js';
import { ExecutorService } from './executor.service.js';
import { HandlerRegistry } from './handler-registry.service.js';
import { LeaseKeeper } from './lease-keeper.js';
import { NodeMembership } from './node-membership.js';
import { ShutdownDrain } from './shutdown-drain.js';
import { TaskRunner } from './task-runner.service.js';

/** Options of {@link ExecutionModule.forRoot}: the built-in `http` (default true) and `shell` (default false). */
export interface ExecutionModuleOptions {
  http?: boolean;
  shell?: boolean;
}

/**
 * The built-in handler providers for `opts`: `noop` always, `http` unless turned off, `shell` (and its apps' uids,
 * ShellIdentities) only when allowed.
 */
export function builtinHandlers(opts: ExecutionModuleOptions = {}): Provider[] {
  const shell = opts.shell ? [ShellJobHandler, ShellIdentities] : [];
  return [NoopJobHandler, ...(opts.http !== false ? [HttpJobHandler] : []), ...shell];
}

/** The modules providing execution's hooks: ATTEMPT_ENDED_HOOK (trigger), ATTEMPT_ADMISSION (dispatch's admission). */
export interface ExecutionHooks {
  attemptEnded: Type<unknown> | DynamicModule;
  admission: Type<unknown> | DynamicModule;
}

/**
 * The executor role (docs/architecture.md, modules): runs every `@JobHandler` provider of the application it is
 * imported into, so a business app can serve only its own handlers (see examples/).
 */
@Module({})
export class ExecutionModule {
  static forRoot(opts: ExecutionModuleOptions, hooks: ExecutionHooks): DynamicModule {
    const builtins = builtinHandlers(opts);
    // An app's own egress allow-list (api_client.egress_allow) narrows its http calls (README "Egress policy").
    const egressAllow: Provider = {
      provide: APP_EGRESS_ALLOW,
      inject: [AppScopes],
      useFactory:
        (apps: AppScopes): AppEgressAllow =>
        (appId) =>
          apps.egressAllowOf(appId),
    };
    return {
      module: ExecutionModule,
      imports: [
        DiscoveryModule,
        MetadataModule,
        CoordinationModule,
        AppStatesModule,
        ExecutionCoreModule.forRoot(hooks),
      ],
      providers: [
        HandlerRegistry,
        AppScopes,
        AttemptExecution,
        TaskRunner,
        NodeMembership,
        LeaseKeeper,
        ClaimLoop,
        ShutdownDrain,
        ExecutorService,
        ...builtins,
        egressAllow,
      ],
      exports: [ExecutorService, HandlerRegistry],
    };
  }
}
