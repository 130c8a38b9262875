import type { ShellSettings } from './shell-settings.js';

/** The roles one process can play (docs/architecture.md). */
export enum Role {
  API = 'api',
  SCHEDULER = 'scheduler',
  EXECUTOR = 'executor',
}

/** Deployment shape: standalone (SQLite + in-process coordination) or cluster (MySQL + Redis). */
export type Shape = 'standalone' | 'cluster';

/** The typed, validated configuration (built once by {@link loadConfig}). Durations are milliseconds. */
export interface AppConfig {
  shape: Shape;
  roles: Role[];
  http: { port: number; host: string };
  /** Span export (docs/observability.md "Tracing"): the OTLP/HTTP traces URL (null: off), the service.name. */
  tracing: { tracesUrl: string | null; serviceName: string };
  /** /metrics (docs/observability.md): `port` null = on the http listener, else its own; `token`: a bearer. */
  metrics: { port: number | null; host: string; token: string | null };
  /** Cluster: mysql:// URL. Standalone: SQLite file path. */
  database: { type: 'mysql'; url: string } | { type: 'better-sqlite3'; path: string };
  /** Cluster only. */
  redisUrl?: string;
  /**
   * The longest wait on MySQL/MariaDB or Redis, ms (STORAGE_TIMEOUT_MS): a pooled connection (connecting
   * included), a statement, a Redis command; then the caller fails (an API answer: 503 STORAGE_UNAVAILABLE).
   */
  storageTimeoutMs: number;
  dataDir: string;
  namespace: string;
  /** 32-byte hex key encrypting api_client secrets; undefined = standalone generates one in dataDir. */
  secretKeyHex?: string;
  allowShell: boolean;
  /** How `shell` commands run: as which uid/gid, with which variables (TICKWHEEL_SHELL_*). */
  shell: ShellSettings;
  /** EGRESS_ALLOW entries (docs/tenancy.md); empty or `*` = anything the built-in set does not refuse. */
  egressAllow: string[];
  /** EGRESS_DENY entries: destinations always refused. */
  egressDeny: string[];
  nodeName: string;
  heartbeatIntervalMs: number;
  nodeOfflineAfterMs: number;
  leaseMs: number;
  leaseRenewMs: number;
  executorConcurrency: number;
  /** Share (0 < s <= 1) of an executor's slots one app may hold: max(1, ⌊concurrency × s⌋); 1 = no bound. */
  executorAppShare: number;
  /** Waiting this long (ms) counts as one priority level more in a node's ready order (docs/dispatch.md). */
  priorityAgingMs: number;
  /** On SIGTERM, how long running work may take to finish before it is aborted and handed back, ms. */
  executorShutdownGraceMs: number;
  triggerScanIntervalMs: number;
  triggerBatchSize: number;
  /** Timing wheel tick (precision), ms. */
  triggerTickMs: number;
  /** Firing pages in flight at once (cluster shape; SQLite always fires one at a time). */
  triggerFireParallelism: number;
  /** Pre-read horizon: fires due within it are held in the leader's wheel, ms. */
  triggerHorizonMs: number;
  /** How long before its fire time a stageable fire is written and routed; 0 = at the fire time. */
  triggerStageLeadMs: number;
  leaderLeaseMs: number;
  misfireThresholdMs: number;
  /** A scheduled fire whose first attempt starts later than this after its fire time is logged and counted; 0 = off. */
  lateFireWarnMs: number;
  /** A fire with no ledger row this long after its time is counted and logged (due-but-not-fired detector). */
  dueAlertAfterMs: number;
  signatureWindowMs: number;
  /** How long an Idempotency-Key and its stored answer are kept, ms (docs/api.md "Idempotency"). */
  idempotencyKeyTtlMs: number;
  /** Most Idempotency-Keys an app holds at once (IDEMPOTENCY_KEYS_PER_APP). */
  idempotencyKeysPerApp: number;
  /** Tokens per second of each app's bucket, for clients without their own `rate_limit`; 0 = unlimited. */
  rateLimitPerSecond: number;
  /** Per-app bucket size (the burst), for clients without their own `rate_burst`. */
  rateLimitBurst: number;
  reconcileIntervalMs: number;
  /** Most instances one job may make in a minute at its peak (peak fires per minute × shardTotal). */
  jobMaxInstancesPerMinute: number;
  /** Most jobs of the namespace with per-job metrics on (JOB_METRICS_MAX; docs/observability.md "Job runs"). */
  jobMetricsMax: number;
  logLevel: string;
  /** Per-app caps (docs/tenancy.md); a client's own value overrides them; 0 = no limit. */
  caps: { maxJobsPerApp: number; maxUnfinishedTasksPerApp: number };
  /** The callback sender (docs/callbacks.md "Sender"); scheduler-role nodes run it. Durations ms. */
  callbacks: CallbackSettings;
  /** Checkpoints, progress and handler logs of running attempts (docs/long-tasks.md). */
  longTasks: LongTaskSettings;
  /** Removal of old finished work and handler logs by the leader (docs/long-tasks.md "Retention"). */
  retention: RetentionSettings;
  /** SMTP_URL: smtp:// or smtps://, optional user:pass (a secret setting); null = e-mail channels fail. */
  smtpUrl: string | null;
  /** SMTP_FROM: the From of notification e-mail (default `tickwheel@localhost`). */
  smtpFrom: string;
  /** The notification closer and sender (docs/notifications.md "Delivery"); scheduler-role nodes run them. */
  notifications: NotificationSettings;
}

/** NOTIFY_* and what the notification sender borrows from CALLBACK_* (README "Settings"). Durations ms. */
export interface NotificationSettings {
  /** Messages one app may have sent in the last hour; a message due past it is postponed, never dropped. */
  maxPerHour: number;
  /** Wait before each retry; `retryDelaysMs.length + 1` tries in all, then FAILED. */
  retryDelaysMs: number[];
  smtpTimeoutMs: number;
  senders: number;
  perHost: number;
  connectTimeoutMs: number;
  readTimeoutMs: number;
  leaseMs: number;
  pollMs: number;
  shutdownGraceMs: number;
  /** NOTIFY_EVAL_MS and NOTIFY_SCAN_MS: the evaluator's and the leader's scans' periods (notifications.md "Events"). */
  evalMs: number;
  scanMs: number;
}

/** MAX_RUN_TIME_MS, CHECKPOINT_MAX_BYTES, PROGRESS_WRITE_INTERVAL_MS, HANDLER_LOG_* (README "Settings"). */
export interface LongTaskSettings {
  /** The longest any attempt runs, ms, however it reports (docs/long-tasks.md "Timeout modes"). */
  maxRunTimeMs: number;
  /** Largest checkpoint, UTF-8 bytes of its JSON. */
  checkpointMaxBytes: number;
  /** At most one progress write per instance this often, ms; 0 = every report. */
  progressWriteIntervalMs: number;
  /** Handler log lines and bytes kept per attempt; 0 lines = stdout only. */
  logMaxLines: number;
  logMaxBytes: number;
}

/** RETENTION_* (README "Settings"). Ages and the interval are ms; 0 age = kept. */
export interface RetentionSettings {
  finishedMs: number;
  logsMs: number;
  intervalMs: number;
  /** Rows one statement removes at most. */
  batch: number;
}

/** Settings of the callback sender (CALLBACK_*; README "Settings"). Durations are milliseconds. */
export interface CallbackSettings {
  /** Deliveries in flight at once on one node, and at most `perHost` of them to one host:port. */
  senders: number;
  perHost: number;
  connectTimeoutMs: number;
  readTimeoutMs: number;
  /** Wait before each retry; `retryDelaysMs.length + 1` tries in all, then CALLBACK_FAILED. */
  retryDelaysMs: number[];
  /** Consecutive failures after which a host is down: its deliveries wait for a probe. */
  hostDownAfter: number;
  /** Undelivered this long after the final state: CALLBACK_FAILED (a host down for ever ends somewhere). */
  maxAgeMs: number;
  /** A sender's claim on a delivery; above connect + read timeouts, so a live sender never loses its claim. */
  leaseMs: number;
  pollMs: number;
  shutdownGraceMs: number;
}

/** Injection token for {@link AppConfig}. */
export const APP_CONFIG = Symbol('APP_CONFIG');
