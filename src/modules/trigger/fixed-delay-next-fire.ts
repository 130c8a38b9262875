import { Inject, Injectable, Module } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '../../config/index.js';
import { ATTEMPT_ENDED_HOOK, type AttemptEnded, type AttemptEndedHook } from '../execution/index.js';
import { JobDefinitionRepository, MetadataModule, TriggerType } from '../metadata/index.js';

/**
 * FIXED_DELAY's next fire (docs/trigger.md): counted from the finish of the instance, so it is set when an
 * executor's final write wins — only for an enabled job that has no next fire yet (a fire leaves it null).
 */
@Injectable()
export class FixedDelayNextFire implements AttemptEndedHook {
  constructor(
    private readonly jobs: JobDefinitionRepository,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async attemptEnded({ jobId, final, at }: AttemptEnded): Promise<void> {
    if (!final || !jobId) return;
    const def = await this.jobs.findById(this.config.namespace, jobId);
    if (def?.enabled && def.triggerType === TriggerType.FIXED_DELAY && def.nextFireTime === null) {
      await this.jobs.setNextFire(def.id, at + Number(def.triggerExpr), at);
    }
  }
}

/** Provides the trigger module's {@link AttemptEndedHook} to `ExecutionModule.forRoot` (executor-only nodes too). */
@Module({
  imports: [MetadataModule],
  providers: [FixedDelayNextFire, { provide: ATTEMPT_ENDED_HOOK, useExisting: FixedDelayNextFire }],
  exports: [ATTEMPT_ENDED_HOOK],
})
export class AttemptEndedHookModule {}
