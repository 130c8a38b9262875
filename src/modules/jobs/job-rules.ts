import { assertHeartbeatTimeout, assertWithinMaxRunTime, ValidationError } from '../../common/index.js';
import { type JobDefinition, OverlapPolicy, RoutingStrategy } from '../metadata/index.js';
import { type JobPatch } from './job-input.js';

/** Fields a PATCH may clear with `null`; every other field keeps its value when omitted and refuses null. */
const NULLABLE_FIELDS: ReadonlySet<string> = new Set(['description', 'routingKey', 'shardParams', 'callbackUrl']);

/** The audit target of a job. */
export function jobTarget(def: Pick<JobDefinition, 'id'>): { type: string; id: string } {
  return { type: 'job', id: def.id };
}

/**
 * Cross-field rules: shards only with SHARDING_BROADCAST, one shardParams entry per shard, QUEUE overlap with
 * maxConcurrency 0 or 1, a heartbeat timeout fit for the mode, a `sentTimeoutMs` within MAX_RUN_TIME_MS.
 * @throws ValidationError naming the field.
 */
export function validateDefinition(def: JobDefinition, maxRunTimeMs: number, sentTimeoutMs?: number): void {
  assertWithinMaxRunTime(sentTimeoutMs, maxRunTimeMs, 'timeoutMs');
  assertHeartbeatTimeout(def, maxRunTimeMs, 'heartbeatTimeoutMs');
  if (def.overlapPolicy === OverlapPolicy.QUEUE && def.maxConcurrency > 1) {
    throw new ValidationError(
      'maxConcurrency',
      `overlapPolicy QUEUE runs one fire at a time; maxConcurrency ${def.maxConcurrency} contradicts it (use 0 or 1)`,
    );
  }
  if (def.shardTotal > 1 && def.routingStrategy !== RoutingStrategy.SHARDING_BROADCAST) {
    throw new ValidationError(
      'shardTotal',
      `shardTotal ${def.shardTotal} needs routingStrategy SHARDING_BROADCAST (got ${def.routingStrategy})`,
    );
  }
  if (def.shardParams && def.shardParams.length !== def.shardTotal) {
    throw new ValidationError(
      'shardParams',
      `shardParams has ${def.shardParams.length} entries; it needs exactly shardTotal (${def.shardTotal})`,
    );
  }
}

/**
 * Refuses `null` in a field that cannot be cleared (the API's optional fields let null through).
 * @throws ValidationError naming the first such field.
 */
export function refuseNulls(dto: JobPatch): void {
  for (const [field, value] of Object.entries(dto)) {
    if (value === null && !NULLABLE_FIELDS.has(field)) {
      throw new ValidationError(field, `${field} cannot be null; omit it to keep the current value`);
    }
  }
}
