import { BOUNDS } from '../common/index.js';
import { BoundSetting, IntSetting } from './env-setting.js';
import { ClusterEnvDto } from './env-cluster.dto.js';

/**
 * What each app's requests are held to: the signature window, rate limits, a job's fan-out, the caps on jobs and
 * unfinished tasks, its idempotency keys, and the namespace's jobs with per-job metrics.
 * The per-client limits share their bounds (common/bounds.ts).
 */
export class TenancyEnvDto extends ClusterEnvDto {
  @IntSetting(1000)
  SIGNATURE_WINDOW_MS?: number;

  @BoundSetting(BOUNDS.rateLimit)
  RATE_LIMIT_PER_SECOND?: number;

  @BoundSetting(BOUNDS.rateBurst)
  RATE_LIMIT_BURST?: number;

  @IntSetting(1, 1_000_000)
  JOB_MAX_INSTANCES_PER_MINUTE?: number;

  @IntSetting(0, 1000)
  JOB_METRICS_MAX?: number;

  @BoundSetting(BOUNDS.maxJobs)
  MAX_JOBS_PER_APP?: number;

  @BoundSetting(BOUNDS.maxUnfinishedTasks)
  MAX_UNFINISHED_TASKS_PER_APP?: number;

  @IntSetting(3_600_000, 2_592_000_000)
  IDEMPOTENCY_KEY_TTL_MS?: number;

  @IntSetting(100, 1_000_000)
  IDEMPOTENCY_KEYS_PER_APP?: number;
}
