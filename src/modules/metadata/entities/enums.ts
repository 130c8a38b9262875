/** How a job definition is triggered (DESIGN §3, §5). */
export enum TriggerType {
  CRON = 'CRON',
  FIXED_RATE = 'FIXED_RATE',
  FIXED_DELAY = 'FIXED_DELAY',
  ONE_SHOT = 'ONE_SHOT',
  API = 'API',
}

/** What created a job instance (DESIGN §3). */
export enum TriggerSource {
  SCHEDULE = 'SCHEDULE',
  API = 'API',
  MANUAL = 'MANUAL',
  /** Made up for a past range by POST /api/jobs/{id}/backfill. */
  BACKFILL = 'BACKFILL',
  RETRY = 'RETRY',
  MISFIRE = 'MISFIRE',
}

/** What to do with fires missed while no leader ran (DESIGN §5). */
export enum MisfirePolicy {
  FIRE_ONCE_NOW = 'FIRE_ONCE_NOW',
  SKIP = 'SKIP',
  FIRE_ALL = 'FIRE_ALL',
}

/** What to do when a fire comes while the previous one still runs (DESIGN §5). */
export enum OverlapPolicy {
  ALLOW = 'ALLOW',
  SKIP = 'SKIP',
  QUEUE = 'QUEUE',
  REPLACE = 'REPLACE',
}

/** How an instance picks its executor (DESIGN §6). */
export enum RoutingStrategy {
  ROUND_ROBIN = 'ROUND_ROBIN',
  RANDOM = 'RANDOM',
  LEAST_ACTIVE = 'LEAST_ACTIVE',
  CONSISTENT_HASH = 'CONSISTENT_HASH',
  FAILOVER = 'FAILOVER',
  SHARDING_BROADCAST = 'SHARDING_BROADCAST',
}

/** Retry backoff shape (DESIGN §7). */
export enum BackoffKind {
  FIXED = 'FIXED',
  EXPONENTIAL = 'EXPONENTIAL',
}

/** Health of a job definition's schedule: ERROR when its next fire could not be computed (DESIGN §5 guard). */
export enum ScheduleState {
  OK = 'OK',
  ERROR = 'ERROR',
}
