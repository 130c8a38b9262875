import { ValidationError } from '../../common/index.js';
import { type JobDefinition, OverlapPolicy, RoutingStrategy } from '../metadata/index.js';
import { type JobPatch } from './job-input.js';

/** Fields a PATCH may clear with `null`; every other field keeps its value when omitted and refuses null. */
const NULLABLE_FIELDS: ReadonlySet<string> = new Set(['description', 'routingKey', 'shardParams']);

/** The audit target of a job. */
export function jobTarget(def: Pick<JobDefinition, 'id'>): { type: string; id: string } {
  return { type: 'job', id: def.id };
}

/**
 * Cross-field rules (the DTO checks each field alone): more than one shard only with SHARDING_BROADCAST;
 * shardParams, when given, has exactly one object per shard; QUEUE overlap runs one at a time, so a
 * larger maxConcurrency would contradict it.
 * @throws ValidationError naming `shardTotal`, `shardParams` or `maxConcurrency`.
 */
export function validateDefinition(def: JobDefinition): void {
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
 * PATCH fields are optional, and class-validator's IsOptional lets `null` through as well as a missing
 * field; a null handler, expression or zone would reach the database (or `.trim()`) as a 500. Only the
 * nullable columns may be cleared with null.
 * @throws ValidationError naming the first such field.
 */
export function refuseNulls(dto: JobPatch): void {
  for (const [field, value] of Object.entries(dto)) {
    if (value === null && !NULLABLE_FIELDS.has(field)) {
      throw new ValidationError(field, `${field} cannot be null; omit it to keep the current value`);
    }
  }
}
