import { jsonBytes, MAX_PARAMS_BYTES, MAX_SHARD_PARAMS_BYTES, ValidationError } from '../../common/index.js';
import { corruptFields, describeCorrupt, type JobDefinition } from '../metadata/index.js';
import { peakFiresPerMinute } from '../trigger/index.js';

type FireFields = Pick<JobDefinition, 'params' | 'shardTotal' | 'shardParams'>;

/**
 * Refuses, before anything is written, a job (or a trigger-now's `params`) whose fires could not be stored:
 * params over MAX_PARAMS_BYTES, shardParams over their column, or a shard's merged params over an instance's.
 * @throws ValidationError naming `params` or `shardParams`.
 */
export function checkFireParams(def: FireFields, params?: Record<string, unknown>): void {
  const base = params ?? def.params ?? {};
  const field = params ? 'params' : 'shardParams';
  const baseBytes = jsonBytes(base);
  if (baseBytes > MAX_PARAMS_BYTES)
    throw new ValidationError('params', `params must be at most ${MAX_PARAMS_BYTES} bytes as JSON (got ${baseBytes})`);
  if (!def.shardParams) return;
  const all = jsonBytes(def.shardParams);
  if (all > MAX_SHARD_PARAMS_BYTES)
    throw new ValidationError(
      'shardParams',
      `shardParams must be at most ${MAX_SHARD_PARAMS_BYTES} bytes as JSON in all (got ${all})`,
    );
  def.shardParams.forEach((own, i) => {
    // A merge is never longer than both texts together: only a shard near the limit is merged to measure it.
    if (baseBytes + jsonBytes(own) <= MAX_PARAMS_BYTES) return;
    const merged = jsonBytes({ ...(base as object), ...(own as object) });
    if (merged > MAX_PARAMS_BYTES) {
      throw new ValidationError(
        field,
        `shard ${i}: params with shardParams[${i}] merged over them would be ${merged} bytes as JSON; ` +
          `an instance's params are at most ${MAX_PARAMS_BYTES}`,
      );
    }
  });
}

/**
 * Refuses a job whose peak fires per minute times shardTotal exceed `max` (JOB_MAX_INSTANCES_PER_MINUTE).
 * @throws ValidationError(field), or naming `triggerExpr`/`timeZone` for a schedule that cannot be read.
 */
export function checkFanOut(
  def: Pick<JobDefinition, 'triggerType' | 'triggerExpr' | 'timeZone' | 'shardTotal'>,
  max: number,
  field: 'shardTotal' | 'triggerExpr',
): void {
  const fires = peakFiresPerMinute(def);
  const shards = Math.max(1, def.shardTotal ?? 1);
  if (fires * shards <= max) return;
  throw new ValidationError(
    field,
    `the job would make up to ${fires * shards} instances a minute ` +
      `(${fires} fire(s) a minute at its peak × shardTotal ${shards}); ` +
      `one job may make at most ${max} (JOB_MAX_INSTANCES_PER_MINUTE)`,
  );
}

/** The field a fan-out error names when the caller changed neither: shardTotal for a sharded job, else its schedule. */
export function fanOutField(def: Pick<JobDefinition, 'shardTotal'>): 'shardTotal' | 'triggerExpr' {
  return def.shardTotal > 1 ? 'shardTotal' : 'triggerExpr';
}

/**
 * Refuses to use a job whose stored params or shardParams cannot be read (CorruptJson) unless the request
 * brings them anew (`replaced`). @throws ValidationError naming the unreadable field.
 */
export function refuseCorruptFields(def: JobDefinition, replaced: ReadonlySet<string> = new Set()): void {
  const bad = corruptFields(def).find(
    (f) => (f.field === 'params' || f.field === 'shardParams') && !replaced.has(f.field),
  );
  if (bad) throw new ValidationError(bad.field, `the stored ${describeCorrupt(bad)}; send ${bad.field} to replace it`);
}
