import { DynamicModule, Module } from '@nestjs/common';
import { ScheduleModule } from '@nestjs/schedule';
import { CoordinationModule } from '../coordination/index.js';
import { DispatchModule } from '../dispatch/index.js';
import { MetadataModule } from '../metadata/index.js';
import { DueDetectorService } from './due-detector.service.js';
import { JobSignals } from './job-signals.service.js';
import { LeaderDuties } from './leader/leader-duties.service.js';
import { LeaderGauges } from './leader/leader-gauges.js';
import { LeaderWheels } from './leader/leader-wheel.js';
import { LeaderElectionService } from './leader-election.service.js';
import { RetentionService } from './retention.service.js';
import { StagedTakeback } from './staged-takeback.js';
import { TriggerService } from './trigger.service.js';
import { JobChangeFires } from './job-change-fires.js';

/**
 * {@link TriggerService} for the API; `forRoot({ scheduler: true })` adds leader election and the leader's
 * duties ({@link LeaderDuties}, their timers listed in @nestjs/schedule's SchedulerRegistry). A role that is off
 * has no timers (docs/architecture.md).
 */
@Module({})
export class TriggerModule {
  static forRoot(opts: { scheduler: boolean }): DynamicModule {
    const roleProviders = opts.scheduler
      ? [
          LeaderElectionService,
          LeaderDuties,
          LeaderWheels,
          LeaderGauges,
          DueDetectorService,
          RetentionService,
          StagedTakeback,
        ]
      : [];
    return {
      module: TriggerModule,
      imports: [
        ...(opts.scheduler ? [ScheduleModule.forRoot()] : []),
        MetadataModule,
        CoordinationModule,
        DispatchModule,
      ],
      providers: [TriggerService, JobSignals, JobChangeFires, ...roleProviders],
      exports: [TriggerService, JobSignals, JobChangeFires, ...roleProviders],
    };
  }
}
