import {
  type BackoffKind,
  type MisfirePolicy,
  type OverlapPolicy,
  type RoutingStrategy,
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
  retryMax?: number;
  retryBackoffMs?: number;
  retryBackoffKind?: BackoffKind;
  enabled?: boolean;
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
