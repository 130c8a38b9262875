import { formatTraceparent, instanceTrace, TimeoutMode } from '../../../common/index.js';
import {
  type CallbackDelivery,
  CorruptJson,
  describeCorruptRow,
  FINAL_STATUSES,
  JobAttempt,
  JobInstance,
} from '../../metadata/index.js';
import { toCallbackView } from './callback-view.js';
import { AttemptViewDto, TaskViewDto } from '../dto/task.dto.js';
import { iso } from './iso.js';

/** The public view of one attempt. */
function toAttemptView(a: JobAttempt): AttemptViewDto {
  return {
    attempt: a.attempt,
    nodeId: a.nodeId,
    fencingToken: a.fencingToken,
    status: a.status,
    startedAt: iso(a.startedAt) as string,
    finishedAt: iso(a.finishedAt),
    error: a.error,
    handlerEndedAt: iso(a.handlerEndedAt ?? null),
    lateStatus: a.lateStatus ?? null,
    lateError: a.lateError ?? null,
    overlapsPrevious: Boolean(a.overlapsPrevious),
  };
}

/**
 * The public view of an instance (task or job fire); with `attempts` (a read of one instance), its attempt trail
 * too. A field whose stored JSON cannot be read (a corrupt row) is null, and the note says so, after the
 * `waiting` note when there is one. `callback`: the instance's delivery (CallbackRedeliver.deliveriesOf), if any.
 */
export function toTaskView(
  i: JobInstance,
  attempts?: JobAttempt[],
  waiting?: string,
  callback?: CallbackDelivery | null,
): TaskViewDto {
  const corrupt = describeCorruptRow(i);
  const note = [waiting, corrupt === null ? undefined : `${corrupt}: shown as null`]
    .filter((n) => n !== undefined)
    .join('; ');
  return {
    requestId: i.requestId,
    instanceId: i.id,
    appId: i.appId,
    handler: i.handler,
    taskName: i.taskName ?? null,
    status: i.status,
    attempt: i.attempt,
    maxAttempts: i.maxAttempts,
    nodeId: i.nodeId,
    jobCode: i.jobCode,
    shardIndex: i.shardIndex,
    shardTotal: i.shardTotal,
    triggerSource: i.triggerSource,
    result: i.result instanceof CorruptJson ? null : (i.result ?? null),
    // The row keeps a failed attempt's error while the retry waits or runs: the outcome's only once final.
    error: FINAL_STATUSES.has(i.status) ? i.error : null,
    traceId: i.traceId,
    traceparent: formatTraceparent(instanceTrace(i)),
    fireTime: iso(i.fireTime) as string,
    dueAt: iso(i.dueAt) as string,
    createdAt: iso(i.createdAt) as string,
    dispatchedAt: iso(i.dispatchedAt),
    startedAt: iso(i.startedAt),
    finishedAt: iso(i.finishedAt),
    checkpointAt: iso(i.checkpointAt),
    checkpointAttempt: i.checkpointAttempt,
    callbackUrl: i.callbackUrl ?? null,
    callback: callback ? toCallbackView(callback) : null,
    progress: i.progress ?? null,
    progressNote: i.progressNote ?? null,
    progressAt: iso(i.progressAt ?? null),
    heartbeatTimeoutMs: i.heartbeatTimeoutMs ?? 0,
    priority: i.priority,
    timeoutMode: i.timeoutMode ?? TimeoutMode.HARD,
    ...(attempts ? { attempts: attempts.map(toAttemptView) } : {}),
    ...(note ? { note } : {}),
  };
}
