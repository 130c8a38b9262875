import { CorruptJson, type JobInstance } from '../../metadata/index.js';

/** The JSON body of a callback (docs/callbacks.md "What is sent"); times epoch ms → ISO-8601 UTC. */
export interface CallbackBody {
  deliveryId: string;
  requestId: string;
  jobCode: string | null;
  instanceId: string;
  status: string;
  result: unknown;
  error: string | null;
  attempts: number;
  durationMs: number | null;
  finishedAt: string | null;
}

/**
 * The body of delivery `deliveryId` from its instance as stored now. `attempts` is the instance's attempt number.
 * @throws Error (`CORRUPT_ROW: …`) when the stored result cannot be read.
 */
export function callbackBody(deliveryId: string, instance: JobInstance): CallbackBody {
  if (instance.result instanceof CorruptJson) throw new Error(`CORRUPT_ROW: the instance's stored result is not JSON`);
  const finished = instance.finishedAt;
  const started = instance.startedAt;
  return {
    deliveryId,
    requestId: instance.requestId,
    jobCode: instance.jobCode ?? null,
    instanceId: instance.id,
    status: instance.status,
    result: instance.result ?? null,
    error: instance.error ?? null,
    attempts: instance.attempt,
    durationMs: finished !== null && started !== null ? Math.max(0, finished - started) : null,
    finishedAt: finished !== null ? new Date(finished).toISOString() : null,
  };
}
