import { Transform } from 'class-transformer';
import { IsInt, IsOptional, Max, Min } from 'class-validator';
import { toInt } from './env-transforms.js';
import { CallbackEnvDto } from './env-callbacks.dto.js';

/**
 * Long tasks and what is kept of finished work (docs/long-tasks.md): checkpoints, progress writes, handler logs and
 * retention.
 */
export class LongTaskEnvDto extends CallbackEnvDto {
  /** Largest checkpoint a handler may store, UTF-8 bytes of its JSON (docs/long-tasks.md "Checkpoints"). */
  @IsOptional()
  @Transform(toInt)
  @IsInt()
  @Min(1024)
  @Max(1_048_576)
  CHECKPOINT_MAX_BYTES?: number;

  /** At most one progress write per instance this often, ms; reports between are coalesced (0 = every report). */
  @IsOptional()
  @Transform(toInt)
  @IsInt()
  @Min(0)
  @Max(3_600_000)
  PROGRESS_WRITE_INTERVAL_MS?: number;

  /** Handler log lines kept per attempt (oldest dropped with a marker); 0 = handler logs go to stdout only. */
  @IsOptional()
  @Transform(toInt)
  @IsInt()
  @Min(0)
  @Max(100_000)
  HANDLER_LOG_MAX_LINES?: number;

  /** Handler log bytes (UTF-8) kept per attempt (oldest dropped with a marker). */
  @IsOptional()
  @Transform(toInt)
  @IsInt()
  @Min(1024)
  @Max(16_777_216)
  HANDLER_LOG_MAX_BYTES?: number;

  /** Finished instances (with their attempts, logs and settled callbacks) older than this are removed, ms; 0 = kept. */
  @IsOptional()
  @Transform(toInt)
  @IsInt()
  @Min(0)
  @Max(315_360_000_000)
  RETENTION_FINISHED_MS?: number;

  /** Handler log lines older than this are removed, ms; 0 = kept as long as their instance. */
  @IsOptional()
  @Transform(toInt)
  @IsInt()
  @Min(0)
  @Max(315_360_000_000)
  RETENTION_LOGS_MS?: number;

  /** How often the leader runs a retention pass, ms. */
  @IsOptional()
  @Transform(toInt)
  @IsInt()
  @Min(1000)
  @Max(86_400_000)
  RETENTION_INTERVAL_MS?: number;

  /** Rows one retention statement removes at most (short statements, no long locks). */
  @IsOptional()
  @Transform(toInt)
  @IsInt()
  @Min(1)
  @Max(10_000)
  RETENTION_BATCH?: number;
}
