import { IsOptional, IsString, Matches, MaxLength } from 'class-validator';
import { IntSetting } from './env-setting.js';
import { LongTaskEnvDto } from './env-long-tasks.dto.js';

/**
 * Notification delivery (docs/notifications.md "Channels", "Delivery"): the SMTP server e-mail goes through, the
 * per-app rate limit, the retry waits and the SMTP timeouts.
 */
export class NotificationEnvDto extends LongTaskEnvDto {
  @IsOptional()
  @IsString()
  @MaxLength(2048)
  @Matches(/^smtps?:\/\/[^\s/?#]+(:\d{1,5})?\/?$/i, {
    message: 'SMTP_URL must be smtp://[user:pass@]host[:port] or smtps://[user:pass@]host[:port]',
  })
  SMTP_URL?: string;

  @IsOptional()
  @IsString()
  @MaxLength(320)
  @Matches(/^([^<>\r\n]{0,200}<[^\s@<>]+@[^\s@<>]+>|[^\s@<>]+@[^\s@<>]+)$/, {
    message: 'SMTP_FROM must be an e-mail address, or "Name <address>"',
  })
  SMTP_FROM?: string;

  @IntSetting(1, 100_000)
  NOTIFY_MAX_PER_HOUR?: number;

  @IsOptional()
  @IsString()
  NOTIFY_RETRY_DELAYS_MS?: string;

  @IntSetting(500, 120_000)
  NOTIFY_SMTP_TIMEOUT_MS?: number;

  @IntSetting(100, 60_000)
  NOTIFY_EVAL_MS?: number;

  @IntSetting(100, 600_000)
  NOTIFY_SCAN_MS?: number;
}
