export { TriggerModule } from './trigger.module.js';
export { TriggerService, SCHEDULER_APP_ID, type ExtraFireHooks, type InFireTransaction } from './trigger.service.js';
export { JobSignals } from './job-signals.service.js';
export { SchedulerLoopService } from './scheduler-loop.service.js';
export { LeaderElectionService } from './leader-election.service.js';
export * from './schedule/schedule.js';
export * from './schedule/cron-schedule.js';
export * from './schedule/crontab-parser.js';
export { AttemptEndedHookModule, FixedDelayNextFire } from './fixed-delay-next-fire.js';
