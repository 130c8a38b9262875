import { BOUNDS, ConflictError, newId, TimeoutMode } from '../../common/index.js';
import {
  BackoffKind,
  JobDefinition,
  MetricsSlotTaken,
  MisfirePolicy,
  OverlapPolicy,
  RoutingStrategy,
  ScheduleState,
  type TriggerType,
} from '../metadata/index.js';

/** A job as a caller describes it (each field checked alone by the API); omitted fields take defaults. */
export interface NewJob {
  code: string;
  description?: string;
  handler: string;
  triggerType: TriggerType;
  triggerExpr: string;
  timeZone?: string;
  params?: Record<string, unknown>;
  routingStrategy?: RoutingStrategy;
  routingKey?: string;
  shardTotal?: number;
  shardParams?: Array<Record<string, unknown>>;
  misfirePolicy?: MisfirePolicy;
  overlapPolicy?: OverlapPolicy;
  maxConcurrency?: number;
  queueLimit?: number;
  timeoutMs?: number;
  heartbeatTimeoutMs?: number;
  /** 1 (lowest) to 5 (highest), copied to each instance (docs/dispatch.md "Priorities"). */
  priority?: number;
  timeoutMode?: TimeoutMode;
  retryMax?: number;
  retryBackoffMs?: number;
  retryBackoffKind?: BackoffKind;
  enabled?: boolean;
  /** Where each instance's final state is posted (docs/callbacks.md); null or omitted: the app's registrations. */
  callbackUrl?: string | null;
  /** Per-job metrics on (docs/observability.md "Job runs"); default false. Takes a slot of JOB_METRICS_MAX. */
  metrics?: boolean;
}

/** A change of a job: any subset of its fields; `null` clears the nullable ones (see refuseNulls). */
export type JobPatch = Partial<NewJob>;

/** A cron.d file to import: name (in job codes), content, zone (default UTC), enable, users vouched for. */
export interface CrontabFile {
  fileName: string;
  content: string;
  timeZone?: string;
  enable?: boolean;
  mapUsers?: string[];
}

/**
 * The unsaved definition `input` describes in `namespace`, owned by `appId`, created at `now` (ms UTC), every
 * omitted field at its default; not validated, with no next fire and no metrics slot yet.
 */
export function definitionOf(input: NewJob, namespace: string, appId: string, now: number): JobDefinition {
  return Object.assign(new JobDefinition(), {
    id: newId(),
    namespace,
    appId,
    code: input.code,
    description: input.description ?? null,
    handler: input.handler,
    triggerType: input.triggerType,
    triggerExpr: input.triggerExpr.trim(),
    timeZone: input.timeZone?.trim() || 'UTC',
    params: input.params ?? {},
    routingStrategy: input.routingStrategy ?? RoutingStrategy.ROUND_ROBIN,
    routingKey: input.routingKey ?? null,
    shardTotal: input.shardTotal ?? BOUNDS.shardTotal.default,
    shardParams: input.shardParams ?? null,
    misfirePolicy: input.misfirePolicy ?? MisfirePolicy.FIRE_ONCE_NOW,
    overlapPolicy: input.overlapPolicy ?? OverlapPolicy.ALLOW,
    maxConcurrency: input.maxConcurrency ?? BOUNDS.maxConcurrency.default,
    queueLimit: input.queueLimit ?? BOUNDS.queueLimit.default,
    timeoutMs: input.timeoutMs ?? BOUNDS.timeoutMs.default,
    heartbeatTimeoutMs: input.heartbeatTimeoutMs ?? BOUNDS.heartbeatTimeoutMs.default,
    priority: input.priority ?? BOUNDS.priority.default,
    timeoutMode: input.timeoutMode ?? TimeoutMode.HARD,
    retryMax: input.retryMax ?? BOUNDS.retryMax.default,
    retryBackoffMs: input.retryBackoffMs ?? BOUNDS.retryBackoffMs.default,
    retryBackoffKind: input.retryBackoffKind ?? BackoffKind.FIXED,
    enabled: input.enabled ?? true,
    callbackUrl: input.callbackUrl ?? null,
    metricsSlot: null,
    scheduleState: ScheduleState.OK,
    scheduleError: null,
    nextFireTime: null,
    lastFireTime: null,
    version: 1,
    createdAt: now,
    updatedAt: now,
    createdBy: appId,
    updatedBy: appId,
  });
}

const SLOT_TRIES = 3;

/**
 * Runs `write` with the lowest free per-job metrics slot (0 … `max` − 1, docs/observability.md "Job runs") that
 * `inUse` reads, again after a MetricsSlotTaken. @throws ConflictError(`metrics`) at `max`; what `write` throws.
 */
export async function takeMetricsSlot<T>(
  inUse: () => Promise<number[]>,
  max: number,
  write: (slot: number) => Promise<T>,
): Promise<T> {
  for (let tries = 1; ; tries++) {
    const used = await inUse();
    const taken = new Set(used);
    const slot = Array.from({ length: max }, (_, i) => i).find((i) => !taken.has(i));
    if (used.length >= max || slot === undefined)
      throw new ConflictError(
        `${used.length} jobs of this namespace have metrics on, as many as JOB_METRICS_MAX (${max}) allows: turn ` +
          'it off on one of them, or ask the operator to raise JOB_METRICS_MAX',
        'metrics',
      );
    try {
      return await write(slot);
    } catch (err) {
      if (!(err instanceof MetricsSlotTaken) || tries >= SLOT_TRIES) throw err;
    }
  }
}
