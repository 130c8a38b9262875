import { Transform } from 'class-transformer';
import { IsInt, IsOptional, Max, Min } from 'class-validator';
import { BOUNDS } from '../common/index.js';
import { toInt } from './env-transforms.js';
import { ClusterEnvDto } from './env-cluster.dto.js';

/**
 * What each app's requests are held to: the signature window, rate limits, a job's fan-out, the caps on jobs and
 * unfinished tasks, and its idempotency keys. The per-client limits share their bounds (common/bounds.ts).
 */
export class TenancyEnvDto extends ClusterEnvDto {
  @IsOptional()
  @Transform(toInt)
  @IsInt()
  @Min(1000)
  SIGNATURE_WINDOW_MS?: number;

  @IsOptional()
  @Transform(toInt)
  @IsInt()
  @Min(BOUNDS.rateLimit.min)
  @Max(BOUNDS.rateLimit.max)
  RATE_LIMIT_PER_SECOND?: number;

  @IsOptional()
  @Transform(toInt)
  @IsInt()
  @Min(BOUNDS.rateBurst.min)
  @Max(BOUNDS.rateBurst.max)
  RATE_LIMIT_BURST?: number;

  @IsOptional()
  @Transform(toInt)
  @IsInt()
  @Min(1)
  @Max(1_000_000)
  JOB_MAX_INSTANCES_PER_MINUTE?: number;

  /** Most job definitions one app may own in a namespace (0 = no limit); a client's max_jobs overrides it. */
  @IsOptional()
  @Transform(toInt)
  @IsInt()
  @Min(BOUNDS.maxJobs.min)
  @Max(BOUNDS.maxJobs.max)
  MAX_JOBS_PER_APP?: number;

  /** Most unfinished instances one app may have (0 = no limit); a client's max_unfinished_tasks overrides it. */
  @IsOptional()
  @Transform(toInt)
  @IsInt()
  @Min(BOUNDS.maxUnfinishedTasks.min)
  @Max(BOUNDS.maxUnfinishedTasks.max)
  MAX_UNFINISHED_TASKS_PER_APP?: number;

  /**
   * How long an Idempotency-Key and its stored answer are kept after the first request with it, ms
   * (docs/api.md "Idempotency"); then the leader's retention pass removes it and the key may be used again.
   */
  @IsOptional()
  @Transform(toInt)
  @IsInt()
  @Min(3_600_000)
  @Max(2_592_000_000)
  IDEMPOTENCY_KEY_TTL_MS?: number;

  /**
   * Most Idempotency-Keys one app may hold at once (docs/api.md "Idempotency"): its stored answers are bounded by
   * this times the largest answer; past it a new key is a 429 until older ones expire.
   */
  @IsOptional()
  @Transform(toInt)
  @IsInt()
  @Min(100)
  @Max(1_000_000)
  IDEMPOTENCY_KEYS_PER_APP?: number;
}
