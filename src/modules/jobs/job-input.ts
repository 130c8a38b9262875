import { BOUNDS, newId } from '../../common/index.js';
import {
  BackoffKind,
  JobDefinition,
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
  timeoutMs?: number;
  heartbeatTimeoutMs?: number;
  retryMax?: number;
  retryBackoffMs?: number;
  retryBackoffKind?: BackoffKind;
  enabled?: boolean;
  /** Where each instance's final state is posted (docs/callbacks.md); null or omitted: the app's registrations. */
  callbackUrl?: string | null;
}

/** A change of a job: any subset of its fields; `null` clears the nullable ones (see refuseNulls). */
export type JobPatch = Partial<NewJob>;

/** A cron.d file to import: its name (used in job codes), content, zone (default UTC), enabled or paused. */
export interface CrontabFile {
  fileName: string;
  content: string;
  timeZone?: string;
  enable?: boolean;
}

/**
 * The unsaved definition `input` describes in `namespace`, owned by `appId`, created at `now` (ms UTC), every
 * omitted field at its default; not validated, and with no next fire yet.
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
    timeoutMs: input.timeoutMs ?? BOUNDS.timeoutMs.default,
    heartbeatTimeoutMs: input.heartbeatTimeoutMs ?? BOUNDS.heartbeatTimeoutMs.default,
    retryMax: input.retryMax ?? BOUNDS.retryMax.default,
    retryBackoffMs: input.retryBackoffMs ?? BOUNDS.retryBackoffMs.default,
    retryBackoffKind: input.retryBackoffKind ?? BackoffKind.FIXED,
    enabled: input.enabled ?? true,
    callbackUrl: input.callbackUrl ?? null,
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
