import { IsOptional, IsString } from 'class-validator';
import { IntSetting } from './env-setting.js';
import { TenancyEnvDto } from './env-tenancy.dto.js';

/**
 * The callback sender (docs/callbacks.md "Sender"): how many deliveries at once, their timeouts, retries, expiry,
 * lease, polling and shutdown grace.
 */
export class CallbackEnvDto extends TenancyEnvDto {
  @IntSetting(1, 1024)
  CALLBACK_SENDERS?: number;

  @IntSetting(1, 1024)
  CALLBACK_PER_HOST?: number;

  @IntSetting(100, 60_000)
  CALLBACK_CONNECT_TIMEOUT_MS?: number;

  @IntSetting(100, 300_000)
  CALLBACK_READ_TIMEOUT_MS?: number;

  @IsOptional()
  @IsString()
  CALLBACK_RETRY_DELAYS_MS?: string;

  @IntSetting(1, 1000)
  CALLBACK_HOST_DOWN_AFTER?: number;

  @IntSetting(60_000, 2_592_000_000)
  CALLBACK_MAX_AGE_MS?: number;

  @IntSetting(1000, 3_600_000)
  CALLBACK_LEASE_MS?: number;

  @IntSetting(10, 60_000)
  CALLBACK_POLL_MS?: number;

  @IntSetting(0, 600_000)
  CALLBACK_SHUTDOWN_GRACE_MS?: number;
}
