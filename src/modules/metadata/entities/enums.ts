/** How a job definition is triggered (docs/trigger.md). */
export enum TriggerType {
  CRON = 'CRON',
  FIXED_RATE = 'FIXED_RATE',
  FIXED_DELAY = 'FIXED_DELAY',
  ONE_SHOT = 'ONE_SHOT',
  API = 'API',
}

/** What created a job instance. */
export enum TriggerSource {
  SCHEDULE = 'SCHEDULE',
  API = 'API',
  MANUAL = 'MANUAL',
  BACKFILL = 'BACKFILL',
  RETRY = 'RETRY',
  MISFIRE = 'MISFIRE',
}

/** What to do with fires missed while no leader ran (docs/trigger.md). */
export enum MisfirePolicy {
  FIRE_ONCE_NOW = 'FIRE_ONCE_NOW',
  SKIP = 'SKIP',
  FIRE_ALL = 'FIRE_ALL',
}

/** What to do when a fire comes while the previous one still runs (docs/trigger.md). */
export enum OverlapPolicy {
  ALLOW = 'ALLOW',
  SKIP = 'SKIP',
  QUEUE = 'QUEUE',
  REPLACE = 'REPLACE',
}

/** How an instance picks its executor (docs/dispatch.md). */
export enum RoutingStrategy {
  ROUND_ROBIN = 'ROUND_ROBIN',
  RANDOM = 'RANDOM',
  LEAST_ACTIVE = 'LEAST_ACTIVE',
  CONSISTENT_HASH = 'CONSISTENT_HASH',
  FAILOVER = 'FAILOVER',
  SHARDING_BROADCAST = 'SHARDING_BROADCAST',
}

/** Retry backoff shape (docs/execution.md). */
export enum BackoffKind {
  FIXED = 'FIXED',
  EXPONENTIAL = 'EXPONENTIAL',
}

/** Health of a job's schedule: ERROR when its next fire could not be computed. */
export enum ScheduleState {
  OK = 'OK',
  ERROR = 'ERROR',
}

/** Why the system paused a job (job_definition.paused_reason; docs/tenancy.md "Disabled clients", README import). */
export enum PausedReason {
  /** Its owner's API client was disabled: resumed by the system when the client is enabled again. */
  CLIENT_DISABLED = 'CLIENT_DISABLED',
  /** An imported crontab line names a user the import did not map (docs/trigger.md); a resume clears it. */
  CRONTAB_USER = 'CRONTAB_USER',
}

/**
 * What an API client may do (docs/tenancy.md); outside its scopes a request is a 403 naming the scope. `admin`
 * manages every app's work and the clients; `shell` may submit work for the `shell` handler.
 */
export enum Scope {
  TASKS_READ = 'tasks:read',
  TASKS_WRITE = 'tasks:write',
  JOBS_READ = 'jobs:read',
  JOBS_WRITE = 'jobs:write',
  NODES_READ = 'nodes:read',
  SHELL = 'shell',
  /** Run an app worker (docs/workers.md): register worker nodes, claim and finish the app's own attempts. */
  WORKER = 'worker',
  ADMIN = 'admin',
}

/** Scopes a client gets when none are chosen: its own tasks and jobs, and the node list; never admin or shell. */
export const DEFAULT_SCOPES: readonly Scope[] = [
  Scope.TASKS_READ,
  Scope.TASKS_WRITE,
  Scope.JOBS_READ,
  Scope.JOBS_WRITE,
  Scope.NODES_READ,
];

/** The app id on the fires of a job with no owner (an old row); no client may take it. */
export const OWNERLESS_APP_ID = 'tickwheel';
