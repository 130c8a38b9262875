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

/**
 * What an API client may do (issue 9, README "Tenancy and scopes"). Chosen when the client is created;
 * a request outside its scopes is a 403 naming the scope. `admin` sees and manages every app's jobs and
 * tasks in its namespace and manages clients; `shell` is needed to submit work for the `shell` handler.
 */
export enum Scope {
  TASKS_READ = 'tasks:read',
  TASKS_WRITE = 'tasks:write',
  JOBS_READ = 'jobs:read',
  JOBS_WRITE = 'jobs:write',
  NODES_READ = 'nodes:read',
  SHELL = 'shell',
  ADMIN = 'admin',
}

/** Scopes a client gets when none are chosen: its own tasks and jobs, and the node list; never admin or shell. */
export const DEFAULT_SCOPES: readonly Scope[] = [Scope.TASKS_READ, Scope.TASKS_WRITE, Scope.JOBS_READ, Scope.JOBS_WRITE, Scope.NODES_READ];

/** The app id on the fires of a job that has no owner (a row from before jobs had one); no client may take it to own them. */
export const OWNERLESS_APP_ID = 'tickwheel';
