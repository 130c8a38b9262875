import { JobInstance } from '../../metadata/index.js';
import { TaskViewDto } from '../dto/task.dto.js';

const iso = (ms: number | null): string | null => (ms === null ? null : new Date(ms).toISOString());

/** The public view of an instance (task or job fire). */
export function toTaskView(i: JobInstance): TaskViewDto {
  return {
    requestId: i.requestId, instanceId: i.id, handler: i.handler, status: i.status, attempt: i.attempt,
    maxAttempts: i.maxAttempts, nodeId: i.nodeId, jobCode: i.jobCode, triggerSource: i.triggerSource,
    result: i.result ?? null, error: i.error, traceId: i.traceId, fireTime: iso(i.fireTime) as string,
    dueAt: iso(i.dueAt) as string, createdAt: iso(i.createdAt) as string, dispatchedAt: iso(i.dispatchedAt),
    startedAt: iso(i.startedAt), finishedAt: iso(i.finishedAt),
  };
}
