import { IntSetting } from './env-setting.js';
import { CallbackEnvDto } from './env-callbacks.dto.js';

/**
 * Long tasks and what is kept of finished work (docs/long-tasks.md): the longest run of an attempt, checkpoints,
 * progress writes, handler logs and retention.
 */
export class LongTaskEnvDto extends CallbackEnvDto {
  /** At most 7 days: a Node timer is 32-bit (24.8 days), and a run that long outlives any deploy. */
  @IntSetting(1000, 604_800_000)
  MAX_RUN_TIME_MS?: number;

  @IntSetting(1024, 1_048_576)
  CHECKPOINT_MAX_BYTES?: number;

  @IntSetting(0, 3_600_000)
  PROGRESS_WRITE_INTERVAL_MS?: number;

  @IntSetting(0, 100_000)
  HANDLER_LOG_MAX_LINES?: number;

  @IntSetting(1024, 16_777_216)
  HANDLER_LOG_MAX_BYTES?: number;

  @IntSetting(0, 315_360_000_000)
  RETENTION_FINISHED_MS?: number;

  @IntSetting(0, 315_360_000_000)
  RETENTION_LOGS_MS?: number;

  @IntSetting(1000, 86_400_000)
  RETENTION_INTERVAL_MS?: number;

  @IntSetting(1, 10_000)
  RETENTION_BATCH?: number;
}
