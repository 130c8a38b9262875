import {
  MAX_BATCH_TASKS,
  MAX_CALLBACK_URL_CHARS,
  MAX_CODE_CHARS,
  MAX_CRONTAB_CHARS,
  MAX_ERROR_CHARS,
  MAX_FILE_NAME_CHARS,
  MAX_LIST_LIMIT,
  MAX_LIST_OFFSET,
  MAX_PARAMS_BYTES,
  MAX_SHARD_PARAMS_BYTES,
  MAX_SHARDS,
  MAX_TEXT_CHARS,
  MAX_ZONE_CHARS,
} from './limits.js';

/** ms of time; UTF-8 bytes of a value's JSON; UTF-16 code units of a string; items or a plain number. */
export type BoundUnit = 'ms' | 'bytes' | 'chars' | 'count';

/**
 * The inclusive range of one request field. `min` is absent where only a maximum applies (a string's length,
 * JSON bytes); `default` is what an omitted field takes.
 */
export interface Bound {
  readonly min?: number;
  readonly max: number;
  readonly unit: BoundUnit;
  readonly default?: number;
}

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;
/** Attempts of one instance in all; a job counts its retries after the first, so it has one fewer. */
const MAX_ATTEMPTS = 20;

/**
 * Every bound of a request field, the one place its numbers are written (docs/api.md "Limits" says what reads it);
 * the sizes of stored columns come from limits.ts.
 */
export const BOUNDS = {
  // What one attempt may take, on a task and on a job alike.
  timeoutMs: { min: 1, max: DAY_MS, unit: 'ms', default: 60_000 },
  heartbeatTimeoutMs: { min: 0, max: DAY_MS, unit: 'ms', default: 0 },
  retryBackoffMs: { min: 0, max: HOUR_MS, unit: 'ms', default: 1000 },
  maxAttempts: { min: 1, max: MAX_ATTEMPTS, unit: 'count', default: 1 },
  retryMax: { min: 0, max: MAX_ATTEMPTS - 1, unit: 'count', default: 0 },
  delayMs: { min: 0, max: 31 * DAY_MS, unit: 'ms', default: 0 },
  priority: { min: 1, max: 5, unit: 'count', default: 3 },
  tasks: { min: 1, max: MAX_BATCH_TASKS, unit: 'count' },

  maxConcurrency: { min: 0, max: 10_000, unit: 'count', default: 0 },
  queueLimit: { min: 1, max: 1000, unit: 'count', default: 10 },
  shardTotal: { min: 1, max: MAX_SHARDS, unit: 'count', default: 1 },
  shardParamsItems: { max: MAX_SHARDS, unit: 'count' },
  shardParams: { max: MAX_SHARD_PARAMS_BYTES, unit: 'bytes' },
  params: { max: MAX_PARAMS_BYTES, unit: 'bytes' },

  // Names: the VARCHAR columns they are stored in, or the app id's own rule.
  requestId: { min: 1, max: MAX_CODE_CHARS, unit: 'chars' },
  handler: { min: 1, max: MAX_CODE_CHARS, unit: 'chars' },
  code: { min: 1, max: MAX_CODE_CHARS, unit: 'chars' },
  appId: { min: 3, max: 64, unit: 'chars' },
  description: { max: MAX_TEXT_CHARS, unit: 'chars' },
  triggerExpr: { max: MAX_TEXT_CHARS, unit: 'chars' },
  routingKey: { max: MAX_TEXT_CHARS, unit: 'chars' },
  taskName: { max: MAX_TEXT_CHARS, unit: 'chars' },
  timeZone: { max: MAX_ZONE_CHARS, unit: 'chars' },
  callbackUrl: { max: MAX_CALLBACK_URL_CHARS, unit: 'chars' },
  // A receiving host:port of callbacks (callback_delivery.host's VARCHAR(300)).
  callbackHost: { min: 3, max: 300, unit: 'chars' },
  fileName: { min: 1, max: MAX_FILE_NAME_CHARS, unit: 'chars' },
  content: { max: MAX_CRONTAB_CHARS, unit: 'chars' },
  mapUsers: { max: 32, unit: 'count' },
  crontabUser: { min: 1, max: 32, unit: 'chars' },
  jobId: { max: 36, unit: 'chars' },

  // Paging of lists; an encoded cursor is far shorter than its bound.
  offset: { min: 0, max: MAX_LIST_OFFSET, unit: 'count', default: 0 },
  limit: { min: 1, max: MAX_LIST_LIMIT, unit: 'count', default: 50 },
  cursor: { max: 200, unit: 'chars' },
  logLimit: { min: 1, max: 1000, unit: 'count', default: 200 },
  logAfter: { min: 0, max: Number.MAX_SAFE_INTEGER, unit: 'count', default: 0 },
  logAttempt: { min: 1, max: 1_000_000, unit: 'count' },
  previewCount: { min: 1, max: 100, unit: 'count', default: 10 },
  // GET /api/jobs?q= (a substring of code, description or handler); GET /api/schedules/load's span and herd size.
  q: { min: 1, max: MAX_CODE_CHARS, unit: 'chars' },
  hours: { min: 1, max: 48, unit: 'count', default: 24 },
  herd: { min: 2, max: 100_000, unit: 'count', default: 10 },

  // A client's own limits; the settings that stand in for a null one (RATE_LIMIT_*, MAX_*_PER_APP) share them.
  rateLimit: { min: 0, max: 1_000_000, unit: 'count', default: 100 },
  rateBurst: { min: 1, max: 1_000_000, unit: 'count', default: 200 },
  maxJobs: { min: 0, max: 10_000_000, unit: 'count', default: 10_000 },
  maxUnfinishedTasks: { min: 0, max: 100_000_000, unit: 'count', default: 100_000 },
  egressAllow: { max: 64, unit: 'count' },
  egressEntry: { max: 255, unit: 'chars' },

  // App workers' routes (docs/workers.md).
  workerHandlers: { min: 1, max: 100, unit: 'count' },
  workerCapacity: { min: 1, max: 1000, unit: 'count' },
  workerHost: { max: 100, unit: 'chars' },
  workerActive: { min: 0, max: 1000, unit: 'count' },
  claimMax: { min: 1, max: 100, unit: 'count' },
  finishItems: { min: 1, max: 100, unit: 'count' },
  claimWaitMs: { min: 0, max: 20_000, unit: 'ms' },
  leaseAttempts: { max: 1000, unit: 'count' },
  instanceId: { min: 1, max: 36, unit: 'chars' },
  fencingToken: { min: 0, max: Number.MAX_SAFE_INTEGER, unit: 'count' },
  progressNote: { max: 256, unit: 'chars' },
  fraction: { min: 0, max: 1, unit: 'count' },
  epochMs: { min: 0, max: Number.MAX_SAFE_INTEGER, unit: 'ms' },
  logLines: { min: 1, max: 100, unit: 'count' },
  logMessage: { max: 4096, unit: 'chars' },
  workerError: { max: MAX_ERROR_CHARS, unit: 'chars' },

  // Notification rules (docs/notifications.md "Rules").
  ruleName: { min: 1, max: 100, unit: 'chars' },
  quietMs: { min: 0, max: DAY_MS, unit: 'ms', default: 600_000 },
  failureCount: { min: 2, max: 100, unit: 'count' },
  withinMs: { min: 1000, max: 7 * DAY_MS, unit: 'ms' },
  thresholdMs: { min: 100, max: 7 * DAY_MS, unit: 'ms' },
} as const satisfies Record<string, Bound>;

export type BoundName = keyof typeof BOUNDS;

/** `^[chars]{min,max}$`: a name of the characters `chars` (a regex class body) whose length is within `bound`. */
export function namePattern(chars: string, bound: Bound): RegExp {
  return new RegExp(`^[${chars}]{${bound.min ?? 0},${bound.max}}$`);
}

/** The 400 message of a name that does not match {@link namePattern}: `handler must be 1-128 of [A-Za-z0-9_.:-]`. */
export function nameMessage(field: string, chars: string, bound: Bound): string {
  return `${field} must be ${bound.min ?? 0}-${bound.max} of [${chars}]`;
}

/** A duration for people: '24 h', '31 days', '1 h', '90 s'; ms when no larger unit divides it. */
export function humanMs(ms: number): string {
  if (ms % DAY_MS === 0 && ms > DAY_MS) return `${ms / DAY_MS} days`;
  if (ms % HOUR_MS === 0) return `${ms / HOUR_MS} h`;
  if (ms % 60_000 === 0) return `${ms / 60_000} min`;
  if (ms % 1000 === 0) return `${ms / 1000} s`;
  return `${ms} ms`;
}
