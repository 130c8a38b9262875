import { Transform } from 'class-transformer';
import { IsBoolean, IsIn, IsInt, IsNumber, IsOptional, IsPositive, IsString, Matches, Max, Min } from 'class-validator';

const toInt = ({ value }: { value: unknown }) =>
  value === undefined || value === '' ? undefined : /^-?\d+$/.test(String(value).trim()) ? Number(value) : value;
/** A plain decimal (no sign, no exponent) becomes a number; anything else is left for the validator to refuse. */
const toNumber = ({ value }: { value: unknown }) =>
  value === undefined || value === ''
    ? undefined
    : /^\s*(\d+(\.\d*)?|\.\d+)\s*$/.test(String(value))
      ? Number(value)
      : value;
/** One message for every way EXECUTOR_APP_SHARE can be wrong (the validator would name only one rule). */
const SHARE = 'EXECUTOR_APP_SHARE must be a number above 0 and at most 1 (a fraction of the worker slots)';
const toBool = ({ value }: { value: unknown }) => {
  if (value === undefined || value === '') return undefined;
  const v = String(value).trim().toLowerCase();
  if (['true', '1', 'yes', 'on'].includes(v)) return true;
  if (['false', '0', 'no', 'off'].includes(v)) return false;
  return value;
};

/**
 * Every environment setting Tickwheel reads, validated once at boot (the only reader is loadConfig).
 * The README's settings table documents the same list; keep them in step.
 */
export class EnvDto {
  @IsOptional()
  @Transform(toInt)
  @IsInt()
  @Min(0)
  @Max(65535)
  PORT?: number;

  @IsOptional()
  @IsString()
  HOST?: string;

  @IsOptional()
  @IsString()
  @Matches(/^mysql:\/\//, { message: 'DB_URL must be a mysql:// URL (e.g. mysql://root@127.0.0.1:3306/test)' })
  DB_URL?: string;

  @IsOptional()
  @IsString()
  @Matches(/^rediss?:\/\//, { message: 'REDIS_URL must be a redis:// or rediss:// URL' })
  REDIS_URL?: string;

  @IsOptional()
  @IsString()
  DATA_DIR?: string;

  @IsOptional()
  @IsString()
  ROLES?: string;

  @IsOptional()
  @IsString()
  @Matches(/^[A-Za-z0-9_.-]{1,32}$/, { message: 'TICKWHEEL_NAMESPACE must be 1-32 of [A-Za-z0-9_.-]' })
  TICKWHEEL_NAMESPACE?: string;

  @IsOptional()
  @IsString()
  @Matches(/^[0-9a-fA-F]{64}$/, { message: 'TICKWHEEL_SECRET_KEY must be 64 hex characters (32 bytes)' })
  TICKWHEEL_SECRET_KEY?: string;

  @IsOptional()
  @Transform(toBool)
  @IsBoolean()
  TICKWHEEL_ALLOW_SHELL?: boolean;

  @IsOptional()
  @Transform(toInt)
  @IsInt()
  @Min(0)
  @Max(4_294_967_294)
  TICKWHEEL_SHELL_UID?: number;

  @IsOptional()
  @Transform(toInt)
  @IsInt()
  @Min(0)
  @Max(4_294_967_294)
  TICKWHEEL_SHELL_GID?: number;

  @IsOptional()
  @Transform(toBool)
  @IsBoolean()
  TICKWHEEL_SHELL_UNISOLATED?: boolean;

  @IsOptional()
  @IsString()
  TICKWHEEL_SHELL_ENV_PASS?: string;

  @IsOptional()
  @IsString()
  NODE_NAME?: string;

  @IsOptional()
  @IsString()
  EGRESS_ALLOW?: string;

  @IsOptional()
  @IsString()
  EGRESS_DENY?: string;

  @IsOptional()
  @Transform(toInt)
  @IsInt()
  @Min(100)
  HEARTBEAT_INTERVAL_MS?: number;

  @IsOptional()
  @Transform(toInt)
  @IsInt()
  @Min(300)
  NODE_OFFLINE_AFTER_MS?: number;

  @IsOptional()
  @Transform(toInt)
  @IsInt()
  @Min(1000)
  LEASE_MS?: number;

  @IsOptional()
  @Transform(toInt)
  @IsInt()
  @Min(100)
  LEASE_RENEW_MS?: number;

  @IsOptional()
  @Transform(toInt)
  @IsInt()
  @Min(1)
  @Max(1024)
  EXECUTOR_CONCURRENCY?: number;

  @IsOptional()
  @Transform(toInt)
  @IsInt()
  @Min(0)
  @Max(3_600_000)
  EXECUTOR_SHUTDOWN_GRACE_MS?: number;

  @IsOptional()
  @Transform(toNumber)
  @IsNumber({ allowNaN: false, allowInfinity: false }, { message: SHARE })
  @IsPositive({ message: SHARE })
  @Max(1, { message: SHARE })
  EXECUTOR_APP_SHARE?: number;

  @IsOptional()
  @Transform(toInt)
  @IsInt()
  @Min(10)
  @Max(60000)
  TRIGGER_SCAN_INTERVAL_MS?: number;

  @IsOptional()
  @Transform(toInt)
  @IsInt()
  @Min(1)
  @Max(10000)
  TRIGGER_BATCH_SIZE?: number;

  @IsOptional()
  @Transform(toInt)
  @IsInt()
  @Min(1)
  @Max(1000)
  TRIGGER_TICK_MS?: number;

  @IsOptional()
  @Transform(toInt)
  @IsInt()
  @Min(1)
  @Max(16)
  TRIGGER_FIRE_PARALLELISM?: number;

  @IsOptional()
  @Transform(toInt)
  @IsInt()
  @Min(1000)
  @Max(3_600_000)
  TRIGGER_HORIZON_MS?: number;

  @IsOptional()
  @Transform(toInt)
  @IsInt()
  @Min(0)
  @Max(600_000)
  TRIGGER_STAGE_LEAD_MS?: number;

  @IsOptional()
  @Transform(toInt)
  @IsInt()
  @Min(1000)
  LEADER_LEASE_MS?: number;

  @IsOptional()
  @Transform(toInt)
  @IsInt()
  @Min(0)
  MISFIRE_THRESHOLD_MS?: number;

  @IsOptional()
  @Transform(toInt)
  @IsInt()
  @Min(1000)
  SIGNATURE_WINDOW_MS?: number;

  @IsOptional()
  @Transform(toInt)
  @IsInt()
  @Min(0)
  @Max(1_000_000)
  RATE_LIMIT_PER_SECOND?: number;

  @IsOptional()
  @Transform(toInt)
  @IsInt()
  @Min(1)
  @Max(1_000_000)
  RATE_LIMIT_BURST?: number;

  @IsOptional()
  @Transform(toInt)
  @IsInt()
  @Min(1000)
  DUE_ALERT_AFTER_MS?: number;

  @IsOptional()
  @Transform(toInt)
  @IsInt()
  @Min(1000)
  RECONCILE_INTERVAL_MS?: number;

  @IsOptional()
  @Transform(toInt)
  @IsInt()
  @Min(1)
  @Max(1_000_000)
  JOB_MAX_INSTANCES_PER_MINUTE?: number;

  @IsOptional()
  @IsIn(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'])
  LOG_LEVEL?: string;

  /** Most job definitions one app may own in a namespace (0 = no limit); a client's max_jobs overrides it. */
  @IsOptional()
  @Transform(toInt)
  @IsInt()
  @Min(0)
  @Max(10_000_000)
  MAX_JOBS_PER_APP?: number;

  /** Most unfinished instances one app may have (0 = no limit); a client's max_unfinished_tasks overrides it. */
  @IsOptional()
  @Transform(toInt)
  @IsInt()
  @Min(0)
  @Max(100_000_000)
  MAX_UNFINISHED_TASKS_PER_APP?: number;

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
