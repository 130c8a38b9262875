import { Transform } from 'class-transformer';
import { IsNumber, IsOptional, IsPositive, Max } from 'class-validator';
import { IntSetting, toNumber } from './env-setting.js';
import { ProcessEnvDto } from './env-process.dto.js';

/** One message for every way EXECUTOR_APP_SHARE can be wrong (the validator would name only one rule). */
const SHARE = 'EXECUTOR_APP_SHARE must be a number above 0 and at most 1 (a fraction of the worker slots)';

/**
 * The timing of the cluster: node heartbeats, leases, executor slots and shutdown, the trigger scan and wheel, the
 * leader lease, misfire and due alerts, and reconciliation.
 */
export class ClusterEnvDto extends ProcessEnvDto {
  @IntSetting(100, 600_000)
  STORAGE_TIMEOUT_MS?: number;

  @IntSetting(100)
  HEARTBEAT_INTERVAL_MS?: number;

  @IntSetting(300)
  NODE_OFFLINE_AFTER_MS?: number;

  @IntSetting(1000)
  LEASE_MS?: number;

  @IntSetting(100)
  LEASE_RENEW_MS?: number;

  @IntSetting(1, 1024)
  EXECUTOR_CONCURRENCY?: number;

  @IntSetting(0, 3_600_000)
  EXECUTOR_SHUTDOWN_GRACE_MS?: number;

  @IsOptional()
  @Transform(toNumber)
  @IsNumber({ allowNaN: false, allowInfinity: false }, { message: SHARE })
  @IsPositive({ message: SHARE })
  @Max(1, { message: SHARE })
  EXECUTOR_APP_SHARE?: number;

  @IntSetting(100, 3_600_000)
  PRIORITY_AGING_MS?: number;

  @IntSetting(10, 60000)
  TRIGGER_SCAN_INTERVAL_MS?: number;

  @IntSetting(1, 10000)
  TRIGGER_BATCH_SIZE?: number;

  @IntSetting(1, 1000)
  TRIGGER_TICK_MS?: number;

  @IntSetting(1, 16)
  TRIGGER_FIRE_PARALLELISM?: number;

  @IntSetting(1000, 3_600_000)
  TRIGGER_HORIZON_MS?: number;

  @IntSetting(0, 600_000)
  TRIGGER_STAGE_LEAD_MS?: number;

  @IntSetting(1000)
  LEADER_LEASE_MS?: number;

  @IntSetting(0)
  MISFIRE_THRESHOLD_MS?: number;

  @IntSetting(0, 3_600_000)
  LATE_FIRE_WARN_MS?: number;

  @IntSetting(1000)
  DUE_ALERT_AFTER_MS?: number;

  @IntSetting(1000)
  RECONCILE_INTERVAL_MS?: number;
}
