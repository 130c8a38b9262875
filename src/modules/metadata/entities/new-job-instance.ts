import {
  BOUNDS,
  childContext,
  formatTraceparent,
  newId,
  spanIdOf,
  TimeoutMode,
  type TraceContext,
} from '../../../common/index.js';
import { JobInstanceStatus } from '../state-machine/job-instance-status.js';
import { type InitialStatus } from '../state-machine/transitions.js';
import { BackoffKind, RoutingStrategy } from './enums.js';
import { JobInstance } from './job-instance.entity.js';

/** What differs between new instances; everything else starts as a fresh first attempt, PENDING unless `status`. */
export type NewJobInstance = Pick<
  JobInstance,
  'namespace' | 'appId' | 'handler' | 'fireTime' | 'triggerSource' | 'dueAt'
> &
  Partial<
    Pick<
      JobInstance,
      | 'requestId'
      | 'requestHash'
      | 'jobId'
      | 'jobCode'
      | 'maxAttempts'
      | 'retryBackoffMs'
      | 'retryBackoffKind'
      | 'timeoutMs'
      | 'routingStrategy'
      | 'routingKey'
      | 'params'
      | 'shardIndex'
      | 'shardTotal'
      | 'maxConcurrency'
      | 'callbackUrl'
      | 'taskName'
      | 'heartbeatTimeoutMs'
      | 'priority'
      | 'timeoutMode'
    >
  > & {
    status?: InitialStatus;
    parentTrace?: TraceContext | null;
  };

/**
 * The one constructor of a new job instance row (API task or job fire): a first attempt in an InitialStatus
 * (PENDING by default) with a UUIDv7 id, no node, fencing token 0, and `requestId` = the id unless the caller chose
 * one. Its trace: a span (its id derived from the row's) of `parentTrace`, else of a new trace whose id is the
 * row's id as hex. `now` is epoch ms.
 */
export function newJobInstance({ parentTrace, ...f }: NewJobInstance, now: number): JobInstance {
  const id = newId();
  const trace = childContext(parentTrace ?? null, id.replace(/-/g, ''), spanIdOf(id));
  return Object.assign(new JobInstance(), {
    id,
    requestId: id,
    requestHash: null,
    jobId: null,
    jobCode: null,
    shardIndex: 0,
    shardTotal: 1,
    status: JobInstanceStatus.PENDING,
    staged: null,
    attempt: 1,
    maxAttempts: BOUNDS.maxAttempts.default,
    retryBackoffMs: BOUNDS.retryBackoffMs.default,
    retryBackoffKind: BackoffKind.FIXED,
    timeoutMs: BOUNDS.timeoutMs.default,
    maxConcurrency: BOUNDS.maxConcurrency.default,
    routingStrategy: RoutingStrategy.ROUND_ROBIN,
    routingKey: null,
    nodeId: null,
    leaseUntil: null,
    fencingToken: 0,
    params: {},
    result: null,
    error: null,
    traceId: trace.traceId,
    traceparent: formatTraceparent(trace),
    callbackUrl: null,
    taskName: null,
    // every column has a value: the raw INSERT IGNORE sends NULL for a missing one, and SQLite then drops the row
    checkpoint: null,
    checkpointAttempt: null,
    checkpointToken: null,
    checkpointAt: null,
    progress: null,
    progressNote: null,
    progressAt: null,
    heartbeatTimeoutMs: BOUNDS.heartbeatTimeoutMs.default,
    priority: BOUNDS.priority.default,
    timeoutMode: TimeoutMode.HARD,
    createdAt: now,
    updatedAt: now,
    dispatchedAt: null,
    startedAt: null,
    finishedAt: null,
    ...stripUndefined(f),
  });
}

function stripUndefined<T extends object>(o: T): Partial<T> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Partial<T>;
}
