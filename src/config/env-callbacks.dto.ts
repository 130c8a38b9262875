import { Transform } from 'class-transformer';
import { IsInt, IsOptional, IsString, Max, Min } from 'class-validator';
import { toInt } from './env-transforms.js';
import { TenancyEnvDto } from './env-tenancy.dto.js';

/**
 * The callback sender (docs/callbacks.md "Sender"): how many deliveries at once, their timeouts, retries, expiry,
 * lease, polling and shutdown grace.
 */
export class CallbackEnvDto extends TenancyEnvDto {
  /** Callback deliveries one sender node makes at once (docs/callbacks.md "Sender"). */
  @IsOptional()
  @Transform(toInt)
  @IsInt()
  @Min(1)
  @Max(1024)
  CALLBACK_SENDERS?: number;

  /** Deliveries one sender node makes at once to one receiving host:port. */
  @IsOptional()
  @Transform(toInt)
  @IsInt()
  @Min(1)
  @Max(1024)
  CALLBACK_PER_HOST?: number;

  @IsOptional()
  @Transform(toInt)
  @IsInt()
  @Min(100)
  @Max(60_000)
  CALLBACK_CONNECT_TIMEOUT_MS?: number;

  @IsOptional()
  @Transform(toInt)
  @IsInt()
  @Min(100)
  @Max(300_000)
  CALLBACK_READ_TIMEOUT_MS?: number;

  /** Comma list of waits (ms) before each retry; its length + 1 is the number of tries. */
  @IsOptional()
  @IsString()
  CALLBACK_RETRY_DELAYS_MS?: string;

  /** Consecutive failed deliveries after which a host is treated as down (its deliveries wait for a probe). */
  @IsOptional()
  @Transform(toInt)
  @IsInt()
  @Min(1)
  @Max(1000)
  CALLBACK_HOST_DOWN_AFTER?: number;

  /** Age (ms after the final state) past which an undelivered callback ends CALLBACK_FAILED. */
  @IsOptional()
  @Transform(toInt)
  @IsInt()
  @Min(60_000)
  @Max(2_592_000_000)
  CALLBACK_MAX_AGE_MS?: number;

  /** How long a sender's claim on a delivery lasts (must exceed connect + read timeouts). */
  @IsOptional()
  @Transform(toInt)
  @IsInt()
  @Min(1000)
  @Max(3_600_000)
  CALLBACK_LEASE_MS?: number;

  /** How often an idle sender looks for due deliveries, ms. */
  @IsOptional()
  @Transform(toInt)
  @IsInt()
  @Min(10)
  @Max(60_000)
  CALLBACK_POLL_MS?: number;

  /** On SIGTERM, how long in-flight deliveries may take before they are left to another sender, ms. */
  @IsOptional()
  @Transform(toInt)
  @IsInt()
  @Min(0)
  @Max(600_000)
  CALLBACK_SHUTDOWN_GRACE_MS?: number;
}
