import { hostname } from 'node:os';
import { join, resolve } from 'node:path';
import { plainToInstance } from 'class-transformer';
import { validateSync } from 'class-validator';
import { BOUNDS } from '../common/index.js';
import { parseEgressList } from '../modules/egress/index.js';
import { AppConfig, CallbackSettings, NotificationSettings, Role } from './app-config.js';
import { ConfigError } from './config-error.js';
import { EnvDto } from './env.dto.js';
import { shellSettings } from './shell-settings.js';

export { ConfigError } from './config-error.js';

/**
 * Parses ROLES ("api,scheduler,executor", any order, any subset, not empty).
 * @throws ConfigError naming ROLES on an unknown or empty value.
 */
export function parseRoles(raw: string | undefined): Role[] {
  if (raw === undefined || raw.trim() === '') return [Role.API, Role.SCHEDULER, Role.EXECUTOR];
  const known = Object.values(Role) as string[];
  const roles = raw
    .split(',')
    .map((r) => r.trim().toLowerCase())
    .filter((r) => r.length > 0);
  if (roles.length === 0) throw new ConfigError('ROLES', 'no role given; use a comma list of api, scheduler, executor');
  for (const r of roles) {
    if (!known.includes(r))
      throw new ConfigError('ROLES', `unknown role '${r}'; use a comma list of ${known.join(', ')}`);
  }
  return [...new Set(roles)] as Role[];
}

/** Splits and checks an egress list. @throws ConfigError naming the setting and the bad entry. */
function egressEntries(setting: 'EGRESS_ALLOW' | 'EGRESS_DENY', raw: string | undefined): string[] {
  try {
    return parseEgressList(raw, setting).entries.map((e) => e.text);
  } catch (err) {
    throw new ConfigError(setting, (err as Error).message);
  }
}

/** Constraints that say what kind of value a setting takes; reported before any range check. */
const TYPE_CONSTRAINTS = ['isInt', 'isBoolean', 'isString', 'isIn', 'matches'];

/** The message for one bad setting: a failed type check wins over range checks (PORT=abc). */
function firstMessage(constraints: Record<string, string>): string {
  const key = TYPE_CONSTRAINTS.find((k) => k in constraints) ?? Object.keys(constraints)[0];
  return key ? constraints[key] : 'invalid value';
}

/**
 * Validates `env` and builds the {@link AppConfig}; the only reader of process.env in src/. An empty value
 * means unset. `euid` decides the shell handler's defaults and refusals.
 * @throws ConfigError naming the first bad or contradictory setting.
 */
export function loadConfig(
  env: Record<string, string | undefined> = process.env,
  euid: number | undefined = process.geteuid?.(),
): AppConfig {
  const set = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v.trim() !== ''));
  const dto = plainToInstance(EnvDto, set);
  const errors = validateSync(dto, { whitelist: true }); // whitelist drops env vars that are not settings;
  if (errors.length > 0) {
    const e = errors[0];
    const msg = firstMessage(e.constraints ?? {});
    throw new ConfigError(e.property, `${msg} (got '${String(env[e.property])}')`);
  }
  if (dto.DB_URL && !dto.REDIS_URL)
    throw new ConfigError('REDIS_URL', 'DB_URL is set (cluster shape) but REDIS_URL is not; set both or neither');
  if (dto.REDIS_URL && !dto.DB_URL)
    throw new ConfigError('DB_URL', 'REDIS_URL is set (cluster shape) but DB_URL is not; set both or neither');
  const shape = dto.DB_URL ? 'cluster' : 'standalone';
  const roles = parseRoles(dto.ROLES);
  if (shape === 'standalone' && roles.length !== 3) {
    throw new ConfigError(
      'ROLES',
      'standalone (no DB_URL/REDIS_URL) has no shared coordination, so it runs all roles in one process; unset ' +
        'ROLES or set DB_URL and REDIS_URL',
    );
  }
  if (shape === 'cluster' && !dto.TICKWHEEL_SECRET_KEY) {
    throw new ConfigError(
      'TICKWHEEL_SECRET_KEY',
      'required in the cluster shape (64 hex chars; every pod must share it); generate one with: openssl rand -hex 32',
    );
  }
  const heartbeatIntervalMs = dto.HEARTBEAT_INTERVAL_MS ?? 5000;
  const nodeOfflineAfterMs = dto.NODE_OFFLINE_AFTER_MS ?? 15000;
  if (nodeOfflineAfterMs <= heartbeatIntervalMs) {
    throw new ConfigError('NODE_OFFLINE_AFTER_MS', `must exceed HEARTBEAT_INTERVAL_MS (${heartbeatIntervalMs})`);
  }
  const leaseMs = dto.LEASE_MS ?? 180_000;
  const leaseRenewMs = dto.LEASE_RENEW_MS ?? 30_000;
  if (leaseRenewMs >= leaseMs) throw new ConfigError('LEASE_RENEW_MS', `must be less than LEASE_MS (${leaseMs})`);
  const triggerScanIntervalMs = dto.TRIGGER_SCAN_INTERVAL_MS ?? 1000;
  const triggerHorizonMs = dto.TRIGGER_HORIZON_MS ?? 10_000;
  if (triggerHorizonMs <= triggerScanIntervalMs) {
    throw new ConfigError(
      'TRIGGER_HORIZON_MS',
      `must exceed TRIGGER_SCAN_INTERVAL_MS (${triggerScanIntervalMs}): the wheel is refilled every scan`,
    );
  }
  // Half a second off whole seconds: fires due at S+2.5 s are written away from the release instants.
  const triggerStageLeadMs = dto.TRIGGER_STAGE_LEAD_MS ?? 2500;
  if (triggerStageLeadMs + triggerScanIntervalMs >= triggerHorizonMs) {
    throw new ConfigError(
      'TRIGGER_STAGE_LEAD_MS',
      `plus TRIGGER_SCAN_INTERVAL_MS (${triggerScanIntervalMs}) must stay below TRIGGER_HORIZON_MS ` +
        `(${triggerHorizonMs}): a fire is staged from the wheel, which holds only the horizon`,
    );
  }
  const callbacks = callbackSettings(dto);
  const dataDir = resolve(dto.DATA_DIR ?? './data');
  const allowShell = dto.TICKWHEEL_ALLOW_SHELL ?? false;
  const shell = shellSettings(dto, allowShell && roles.includes(Role.EXECUTOR), euid);
  return {
    shape,
    roles,
    http: { port: dto.PORT ?? 3000, host: dto.HOST ?? '0.0.0.0' },
    metrics: metricsSettings(dto),
    tracing: tracingSettings(dto, roles),
    database: dto.DB_URL
      ? { type: 'mysql', url: dto.DB_URL }
      : { type: 'better-sqlite3', path: join(dataDir, 'tickwheel.sqlite') },
    redisUrl: dto.REDIS_URL,
    storageTimeoutMs: dto.STORAGE_TIMEOUT_MS ?? 5000,
    dataDir,
    namespace: dto.TICKWHEEL_NAMESPACE ?? 'default',
    secretKeyHex: dto.TICKWHEEL_SECRET_KEY,
    allowShell,
    shell,
    egressAllow: egressEntries('EGRESS_ALLOW', dto.EGRESS_ALLOW),
    egressDeny: egressEntries('EGRESS_DENY', dto.EGRESS_DENY),
    nodeName: dto.NODE_NAME ?? hostname(),
    heartbeatIntervalMs,
    nodeOfflineAfterMs,
    leaseMs,
    leaseRenewMs,
    executorConcurrency: dto.EXECUTOR_CONCURRENCY ?? 16,
    executorAppShare: dto.EXECUTOR_APP_SHARE ?? 0.875,
    priorityAgingMs: dto.PRIORITY_AGING_MS ?? 10_000,
    executorShutdownGraceMs: dto.EXECUTOR_SHUTDOWN_GRACE_MS ?? 10_000,
    triggerScanIntervalMs,
    triggerBatchSize: dto.TRIGGER_BATCH_SIZE ?? 500,
    triggerTickMs: dto.TRIGGER_TICK_MS ?? 1,
    triggerFireParallelism: dto.TRIGGER_FIRE_PARALLELISM ?? 3,
    triggerHorizonMs,
    triggerStageLeadMs,
    leaderLeaseMs: dto.LEADER_LEASE_MS ?? 10_000,
    misfireThresholdMs: dto.MISFIRE_THRESHOLD_MS ?? 5000,
    lateFireWarnMs: dto.LATE_FIRE_WARN_MS ?? 500,
    dueAlertAfterMs: dto.DUE_ALERT_AFTER_MS ?? 10_000,
    signatureWindowMs: dto.SIGNATURE_WINDOW_MS ?? 300_000,
    idempotencyKeyTtlMs: dto.IDEMPOTENCY_KEY_TTL_MS ?? 86_400_000,
    idempotencyKeysPerApp: dto.IDEMPOTENCY_KEYS_PER_APP ?? 10_000,
    // Defaults and caps: the reasons are in docs/api.md "Rate limits" and docs/tenancy.md "Bounds per app".
    rateLimitPerSecond: dto.RATE_LIMIT_PER_SECOND ?? BOUNDS.rateLimit.default,
    rateLimitBurst: dto.RATE_LIMIT_BURST ?? BOUNDS.rateBurst.default,
    reconcileIntervalMs: dto.RECONCILE_INTERVAL_MS ?? 5000,
    jobMaxInstancesPerMinute: dto.JOB_MAX_INSTANCES_PER_MINUTE ?? 3000,
    jobMetricsMax: dto.JOB_METRICS_MAX ?? 100,
    logLevel: dto.LOG_LEVEL ?? 'info',
    caps: {
      maxJobsPerApp: dto.MAX_JOBS_PER_APP ?? BOUNDS.maxJobs.default,
      maxUnfinishedTasksPerApp: dto.MAX_UNFINISHED_TASKS_PER_APP ?? BOUNDS.maxUnfinishedTasks.default,
    },
    callbacks,
    longTasks: {
      maxRunTimeMs: dto.MAX_RUN_TIME_MS ?? 86_400_000,
      checkpointMaxBytes: dto.CHECKPOINT_MAX_BYTES ?? 65_536,
      progressWriteIntervalMs: dto.PROGRESS_WRITE_INTERVAL_MS ?? 1000,
      logMaxLines: dto.HANDLER_LOG_MAX_LINES ?? 1000,
      logMaxBytes: dto.HANDLER_LOG_MAX_BYTES ?? 262_144,
    },
    // Defaults (docs/long-tasks.md "Retention"): finished work is kept 30 days, handler logs 7.
    retention: {
      finishedMs: dto.RETENTION_FINISHED_MS ?? 30 * 86_400_000,
      logsMs: dto.RETENTION_LOGS_MS ?? 7 * 86_400_000,
      intervalMs: dto.RETENTION_INTERVAL_MS ?? 60_000,
      batch: dto.RETENTION_BATCH ?? 500,
    },
    smtpUrl: dto.SMTP_URL ?? null,
    smtpFrom: dto.SMTP_FROM ?? 'tickwheel@localhost',
    notifications: notificationSettings(dto, callbacks),
  };
}

/**
 * NOTIFY_* with their defaults (docs/notifications.md "Delivery"): 60 messages per app and hour, the callbacks'
 * retry waits, 10 s SMTP timeouts; connect and read timeouts, the per-host share, polling and grace as callbacks.
 */
function notificationSettings(dto: EnvDto, cb: CallbackSettings): NotificationSettings {
  const smtpTimeoutMs = dto.NOTIFY_SMTP_TIMEOUT_MS ?? 10_000;
  return {
    maxPerHour: dto.NOTIFY_MAX_PER_HOUR ?? 60,
    retryDelaysMs: retryDelays(dto.NOTIFY_RETRY_DELAYS_MS, 'NOTIFY_RETRY_DELAYS_MS'),
    smtpTimeoutMs,
    senders: 16,
    perHost: cb.perHost,
    connectTimeoutMs: cb.connectTimeoutMs,
    readTimeoutMs: cb.readTimeoutMs,
    leaseMs: Math.max(cb.leaseMs, 3 * smtpTimeoutMs + 10_000),
    pollMs: Math.max(cb.pollMs, 500),
    shutdownGraceMs: cb.shutdownGraceMs,
    evalMs: dto.NOTIFY_EVAL_MS ?? 1000,
    scanMs: dto.NOTIFY_SCAN_MS ?? 10_000,
  };
}

/** CALLBACK_* with their defaults (docs/callbacks.md): 5 s, 30 s, 2 min, 10 min, 30 min between tries. */
function callbackSettings(dto: EnvDto): CallbackSettings {
  const connectTimeoutMs = dto.CALLBACK_CONNECT_TIMEOUT_MS ?? 3000;
  const readTimeoutMs = dto.CALLBACK_READ_TIMEOUT_MS ?? 3000;
  const leaseMs = dto.CALLBACK_LEASE_MS ?? 30_000;
  if (leaseMs <= connectTimeoutMs + readTimeoutMs)
    throw new ConfigError(
      'CALLBACK_LEASE_MS',
      `must exceed CALLBACK_CONNECT_TIMEOUT_MS + CALLBACK_READ_TIMEOUT_MS (${connectTimeoutMs + readTimeoutMs})`,
    );
  return {
    senders: dto.CALLBACK_SENDERS ?? 32,
    perHost: dto.CALLBACK_PER_HOST ?? 4,
    connectTimeoutMs,
    readTimeoutMs,
    retryDelaysMs: retryDelays(dto.CALLBACK_RETRY_DELAYS_MS),
    hostDownAfter: dto.CALLBACK_HOST_DOWN_AFTER ?? 3,
    maxAgeMs: dto.CALLBACK_MAX_AGE_MS ?? 86_400_000,
    leaseMs,
    pollMs: dto.CALLBACK_POLL_MS ?? 200,
    shutdownGraceMs: dto.CALLBACK_SHUTDOWN_GRACE_MS ?? 5000,
  };
}

/** CALLBACK_RETRY_DELAYS_MS or NOTIFY_RETRY_DELAYS_MS: 0-20 comma-separated integers, each 0-86400000 ms. */
function retryDelays(raw: string | undefined, setting = 'CALLBACK_RETRY_DELAYS_MS'): number[] {
  if (raw === undefined) return [5000, 30_000, 120_000, 600_000, 1_800_000];
  const parts = raw.trim() === '' ? [] : raw.split(',').map((p) => p.trim());
  if (parts.length > 20 || parts.some((p) => !/^\d{1,8}$/.test(p) || Number(p) > 86_400_000))
    throw new ConfigError(setting, 'must be at most 20 comma-separated integers 0-86400000 (ms)');
  return parts.map(Number);
}

/** METRICS_PORT, METRICS_HOST (default loopback) and METRICS_TOKEN. @throws ConfigError when the port is PORT's. */
/** The traces URL: OTEL_EXPORTER_OTLP_TRACES_ENDPOINT, else OTEL_EXPORTER_OTLP_ENDPOINT + /v1/traces, else none. */
function tracingSettings(dto: EnvDto, roles: Role[]): AppConfig['tracing'] {
  const base = dto.OTEL_EXPORTER_OTLP_ENDPOINT;
  const tracesUrl = dto.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT ?? (base ? `${base.replace(/\/+$/, '')}/v1/traces` : null);
  return { tracesUrl, serviceName: dto.OTEL_SERVICE_NAME ?? `tickwheel-${roles.join('-')}` };
}

function metricsSettings(dto: EnvDto): AppConfig['metrics'] {
  const port = dto.METRICS_PORT ?? null;
  if (port !== null && port !== 0 && port === (dto.PORT ?? 3000))
    throw new ConfigError('METRICS_PORT', `must differ from PORT (${port}): it is /metrics' own listener`);
  return { port, host: dto.METRICS_HOST ?? '127.0.0.1', token: dto.METRICS_TOKEN ?? null };
}
