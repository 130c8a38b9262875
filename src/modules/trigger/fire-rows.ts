import { BOUNDS, type TraceContext } from '../../common/index.js';
import {
  type JobDefinition,
  type JobInstance,
  newJobInstance,
  OWNERLESS_APP_ID,
  type TriggerSource,
} from '../metadata/index.js';

/**
 * One fire's rows of `def` at `fireTime` (epoch ms, UTC), one per shard: shard params over `params`, the routing key
 * from params, the job's callbackUrl, priority and timeout mode; `dueAt` when they may start, `parentTrace` the trace
 * they join (a new one when null).
 */
export function newFire(
  def: JobDefinition,
  fireTime: number,
  source: TriggerSource,
  now: number,
  params?: Record<string, unknown>,
  dueAt = now,
  parentTrace: TraceContext | null = null,
): JobInstance[] {
  const base = params ?? def.params ?? {};
  const total = Math.max(1, def.shardTotal ?? 1);
  return Array.from({ length: total }, (_, shardIndex) => {
    const own = { ...base, ...((def.shardParams?.[shardIndex] as Record<string, unknown> | undefined) ?? {}) };
    const key = def.routingKey ? own[def.routingKey] : undefined;
    return newJobInstance(
      {
        namespace: def.namespace,
        appId: def.appId || OWNERLESS_APP_ID,
        jobId: def.id,
        jobCode: def.code,
        handler: def.handler,
        fireTime,
        shardIndex,
        shardTotal: total,
        triggerSource: source,
        maxAttempts: def.retryMax + 1,
        retryBackoffMs: def.retryBackoffMs,
        retryBackoffKind: def.retryBackoffKind,
        timeoutMs: def.timeoutMs,
        heartbeatTimeoutMs: def.heartbeatTimeoutMs ?? 0,
        priority: def.priority ?? BOUNDS.priority.default,
        timeoutMode: def.timeoutMode,
        maxConcurrency: def.maxConcurrency ?? 0,
        routingStrategy: def.routingStrategy,
        routingKey: key === undefined || key === null ? null : String(key).slice(0, 255),
        params: own,
        dueAt,
        // The job's callback URL as it is now: a later PATCH affects later instances only (docs/callbacks.md).
        callbackUrl: def.callbackUrl ?? null,
        parentTrace,
      },
      now,
    );
  });
}
