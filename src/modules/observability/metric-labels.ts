import type { TryOutcome } from '../callbacks/index.js';
import type { AttemptOutcome, TakeBackReason } from '../execution/index.js';
import type { CORRUPT_ROW, JobInstanceStatus, MisfirePolicy, RetentionTable } from '../metadata/index.js';

/** Every key of `T` once: the compiler refuses a missing or an unknown one, so a list follows its type. */
type AllOf<T extends string> = Record<T, true>;
const keys = <T extends string>(all: AllOf<T>): readonly T[] => Object.keys(all) as T[];

type Final = Exclude<`${JobInstanceStatus}`, 'PENDING' | 'WAITING' | 'DISPATCHED' | 'RUNNING'>;
const FINAL: AllOf<Final> = { SUCCESS: true, FAILED: true, TIMEOUT: true, CANCELLED: true };
const MISFIRE: AllOf<`${MisfirePolicy}`> = { FIRE_ONCE_NOW: true, SKIP: true, FIRE_ALL: true };
const TAKE_BACK: AllOf<TakeBackReason> = { NODE_LOST: true, LEASE_LOST: true };
const QUARANTINE: AllOf<typeof CORRUPT_ROW> = { CORRUPT_ROW: true };
const CALLBACK: AllOf<TryOutcome['outcome']> = { delivered: true, retry: true, failed: true };
const RETENTION: AllOf<RetentionTable> = {
  job_instance: true,
  job_attempt: true,
  job_log: true,
  callback_delivery: true,
  idempotency_key: true,
};
const OUTCOMES: AllOf<AttemptOutcome['status']> = {
  SUCCESS: true,
  FAILED: true,
  TIMEOUT: true,
  CANCELLED: true,
  HANDED_BACK: true,
};

/** Progress row write outcomes (ProgressWriter) and handler log drop reasons (HandlerLogWriter). */
export type ProgressWriteOutcome = 'stored' | 'stale' | 'failed';
export type LogDropReason = 'limit' | 'flush_failed';
/** Database and Redis error kinds (infra's classifiers). */
export type DbErrorKind = 'conflict' | 'connection' | 'other';
export type RedisErrorKind = 'connection' | 'command';

/**
 * The label values each labelled counter of {@link MetricsService} can take, taken from the types of the code
 * that counts them (type imports only: the modules counting import this one). Their series start at 0.
 */
export const KNOWN_LABELS = {
  instancesFinished: { label: 'status', values: keys(FINAL) },
  misfires: { label: 'policy', values: keys(MISFIRE) },
  leaseExpiries: { label: 'reason', values: keys(TAKE_BACK) },
  rowsQuarantined: { label: 'reason', values: keys(QUARANTINE) },
  progressWrites: { label: 'outcome', values: keys<ProgressWriteOutcome>({ stored: true, stale: true, failed: true }) },
  callbackDeliveries: { label: 'outcome', values: keys(CALLBACK) },
  handlerLogLinesDropped: { label: 'reason', values: keys<LogDropReason>({ limit: true, flush_failed: true }) },
  retentionRowsRemoved: { label: 'table', values: keys(RETENTION) },
  dbErrors: { label: 'kind', values: keys<DbErrorKind>({ conflict: true, connection: true, other: true }) },
  redisErrors: { label: 'kind', values: keys<RedisErrorKind>({ connection: true, command: true }) },
} as const;

/** Outcomes of a handler's attempt, the `outcome` label of tickwheel_execution_duration_seconds. */
export const EXECUTION_OUTCOMES = keys(OUTCOMES);
