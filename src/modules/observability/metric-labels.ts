// The label value sets of the labelled metrics. Observability owns them and imports no module that counts; a
// counting module with a domain type of its own proves, where it counts, that type and set agree (LabelsMatch).

const FINISHED_STATUSES = ['SUCCESS', 'FAILED', 'TIMEOUT', 'CANCELLED'] as const;
const MISFIRE_POLICIES = ['FIRE_ONCE_NOW', 'SKIP', 'FIRE_ALL'] as const;
const LEASE_EXPIRY_REASONS = ['NODE_LOST', 'LEASE_LOST'] as const;
const QUARANTINE_REASONS = ['CORRUPT_ROW'] as const;
const PROGRESS_WRITE_OUTCOMES = ['stored', 'stale', 'failed'] as const;
const CALLBACK_OUTCOMES = ['delivered', 'retry', 'failed'] as const;
const NOTIFICATION_CHANNELS = ['webhook', 'chat', 'email'] as const;
const NOTIFICATION_OUTCOMES = ['delivered', 'retry', 'failed'] as const;
const LOG_DROP_REASONS = ['limit', 'flush_failed'] as const;
const RETENTION_TABLES = ['job_instance', 'job_attempt', 'job_log', 'callback_delivery', 'idempotency_key'] as const;
const DB_ERROR_KINDS = ['conflict', 'connection', 'other'] as const;
const REDIS_ERROR_KINDS = ['connection', 'command'] as const;
const SHARD_MOVE_KINDS = ['migration', 'failover'] as const;
const OUTCOMES = ['SUCCESS', 'FAILED', 'TIMEOUT', 'CANCELLED', 'HANDED_BACK'] as const;

/** `status` of tickwheel_instances_finished_total: the final JobInstance statuses. */
export type FinishedStatusLabel = (typeof FINISHED_STATUSES)[number];
/** `policy` of tickwheel_misfires_total: the MisfirePolicy values. */
export type MisfirePolicyLabel = (typeof MISFIRE_POLICIES)[number];
/** `reason` of tickwheel_lease_expiries_total: why the reconciler takes a RUNNING row back. */
export type LeaseExpiryReasonLabel = (typeof LEASE_EXPIRY_REASONS)[number];
/** `reason` of tickwheel_rows_quarantined_total. */
export type QuarantineReasonLabel = (typeof QUARANTINE_REASONS)[number];
/** `outcome` of tickwheel_progress_writes_total, this union being ProgressWriter's only type for it. */
export type ProgressWriteOutcome = (typeof PROGRESS_WRITE_OUTCOMES)[number];
/** `outcome` of tickwheel_callback_deliveries_total: how a callback try ended. */
export type CallbackOutcomeLabel = (typeof CALLBACK_OUTCOMES)[number];
/** `channel` of tickwheel_notification_deliveries_total: the channel types. */
export type NotificationChannelLabel = (typeof NOTIFICATION_CHANNELS)[number];
/** `outcome` of tickwheel_notification_deliveries_total: how a notification try ended. */
export type NotificationOutcomeLabel = (typeof NOTIFICATION_OUTCOMES)[number];
/** `reason` of tickwheel_handler_log_lines_dropped_total, this union being HandlerLogWriter's only type for it. */
export type LogDropReason = (typeof LOG_DROP_REASONS)[number];
/** `table` of tickwheel_retention_rows_removed_total: the tables retention deletes from. */
export type RetentionTableLabel = (typeof RETENTION_TABLES)[number];
/** `kind` of tickwheel_db_errors_total (metadata's classifier). */
export type DbErrorKindLabel = (typeof DB_ERROR_KINDS)[number];
/** `kind` of tickwheel_redis_errors_total (infra/redis's classifier). */
export type RedisErrorKindLabel = (typeof REDIS_ERROR_KINDS)[number];
/** `kind` of tickwheel_shard_moves_total: a reshard's move of a live owner's shard, or a left owner's failover. */
export type ShardMoveKindLabel = (typeof SHARD_MOVE_KINDS)[number];
/** `outcome` of tickwheel_execution_duration_seconds: how a handler's attempt ended. */
export type ExecutionOutcomeLabel = (typeof OUTCOMES)[number];

/**
 * `true` when the string unions `Domain` (what a module counts) and `Label` (a metric's label set) have the same
 * members, else an object naming the odd ones: a value with no label (`unlabelled`), a label no value has
 * (`unused`). A counting site writes `const _labels: LabelsMatch<Domain, Label> = true`, which then compiles only
 * while the two agree both ways; the compiler's message names the odd members.
 */
export type LabelsMatch<Domain extends string, Label extends string> = [
  Exclude<Domain, Label>,
  Exclude<Label, Domain>,
] extends [never, never]
  ? true
  : { unlabelled: Exclude<Domain, Label>; unused: Exclude<Label, Domain> };

/**
 * The label values each labelled counter of {@link MetricsService} can take. Their series start at 0, so that
 * increase() and rate() see a pod's first event.
 */
export const KNOWN_LABELS = {
  instancesFinished: { label: 'status', values: FINISHED_STATUSES },
  misfires: { label: 'policy', values: MISFIRE_POLICIES },
  leaseExpiries: { label: 'reason', values: LEASE_EXPIRY_REASONS },
  rowsQuarantined: { label: 'reason', values: QUARANTINE_REASONS },
  progressWrites: { label: 'outcome', values: PROGRESS_WRITE_OUTCOMES },
  callbackDeliveries: { label: 'outcome', values: CALLBACK_OUTCOMES },
  handlerLogLinesDropped: { label: 'reason', values: LOG_DROP_REASONS },
  retentionRowsRemoved: { label: 'table', values: RETENTION_TABLES },
  dbErrors: { label: 'kind', values: DB_ERROR_KINDS },
  redisErrors: { label: 'kind', values: REDIS_ERROR_KINDS },
  shardMoves: { label: 'kind', values: SHARD_MOVE_KINDS },
} as const;

/** tickwheel_notification_deliveries_total's two label sets: every channel × outcome series exists at 0. */
export const NOTIFICATION_LABELS = { channel: NOTIFICATION_CHANNELS, outcome: NOTIFICATION_OUTCOMES } as const;
/** The final statuses: the `status` of tickwheel_instances_finished_total and tickwheel_job_runs_total. */
export const FINISHED_STATUS_LABELS: readonly FinishedStatusLabel[] = FINISHED_STATUSES;

/** Outcomes of a handler's attempt, the `outcome` label of tickwheel_execution_duration_seconds. */
export const EXECUTION_OUTCOMES: readonly ExecutionOutcomeLabel[] = OUTCOMES;
