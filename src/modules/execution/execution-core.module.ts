import { DynamicModule, Module } from '@nestjs/common';
import { CoordinationModule } from '../coordination/index.js';
import { MetadataModule } from '../metadata/index.js';
import { CheckpointWriter } from './attempt-checkpoints.js';
import { AppStatesModule } from './app-states.module.js';
import { AttemptFinish } from './attempt-finish.js';
import type { ExecutionHooks } from './execution.module.js';
import { FinishWriter } from './finish-writer.js';
import { HandlerLogWriter } from './handler-log/handler-log-writer.js';
import { JobRunMetricsModule } from './job-run-metrics.js';
import { ProgressWriter } from './progress-writer.js';
import { LateStarts } from './late-starts.js';
import { RemoteAttempts } from './remote-attempts.js';

const PARTS = [
  ProgressWriter,
  CheckpointWriter,
  FinishWriter,
  AttemptFinish,
  HandlerLogWriter,
  RemoteAttempts,
  LateStarts,
];

/**
 * The attempt writers without an executor (docs/architecture.md "Roles"): the finish (decideOutcome, the finishing
 * writes' group commit, admission, the attempt-ended hook), checkpoints, progress, handler logs, and
 * {@link RemoteAttempts} over them. The executor role runs its own handlers with these; the api role serves app
 * workers with them (docs/workers.md) and starts no claim loop, membership or lease keeper.
 */
@Module({})
export class ExecutionCoreModule {
  private static readonly made = new Map<unknown, Map<unknown, DynamicModule>>();

  /** One module per pair of hooks, so an api and an executor in one process share one set of writers. */
  static forRoot(hooks: ExecutionHooks): DynamicModule {
    const byAdmission = ExecutionCoreModule.made.get(hooks.attemptEnded) ?? new Map<unknown, DynamicModule>();
    ExecutionCoreModule.made.set(hooks.attemptEnded, byAdmission);
    let made = byAdmission.get(hooks.admission);
    if (!made) {
      made = {
        module: ExecutionCoreModule,
        imports: [
          MetadataModule,
          CoordinationModule,
          JobRunMetricsModule,
          AppStatesModule,
          hooks.attemptEnded,
          hooks.admission,
        ],
        providers: PARTS,
        exports: PARTS,
      };
      byAdmission.set(hooks.admission, made);
    }
    return made;
  }
}
