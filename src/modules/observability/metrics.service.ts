import { Injectable } from '@nestjs/common';
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import { KNOWN_LABELS, EXECUTION_OUTCOMES, NOTIFICATION_LABELS } from './metric-labels.js';

/**
 * Prometheus metrics (docs/observability.md). One registry per application instance (not prom-client's global one),
 * so several nodes booted in one test process never collide. Names carry the `tickwheel_` prefix;
 * durations are seconds, as Prometheus conventions ask.
 */
@Injectable()
export class MetricsService {
  readonly registry = new Registry();

  readonly httpRequests = new Counter({
    name: 'tickwheel_http_requests_total',
    help: 'Requests the api answered, by route template (or unmatched), method and status (499: client went away)',
    labelNames: ['route', 'method', 'status'] as const,
    registers: [this.registry],
  });

  readonly httpRequestSeconds = new Histogram({
    name: 'tickwheel_http_request_duration_seconds',
    help: 'Time from a request reaching the api to its answer being sent, seconds, by route template and method',
    labelNames: ['route', 'method'] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [this.registry],
  });

  readonly instancesFinished = new Counter({
    name: 'tickwheel_instances_finished_total',
    help: 'Job instances that reached a final status, by status',
    labelNames: ['status'] as const,
    registers: [this.registry],
  });

  readonly jobRuns = new Counter({
    name: 'tickwheel_job_runs_total',
    help:
      'Instances of jobs with metrics on (JOB_METRICS_MAX per namespace) that reached a final status, by owner app, ' +
      'job code and status; counted by the process that wrote the status',
    labelNames: ['app', 'job', 'status'] as const,
    registers: [this.registry],
  });

  readonly retries = new Counter({
    name: 'tickwheel_retries_total',
    help: 'Attempts that failed or timed out and were scheduled again',
    registers: [this.registry],
  });

  readonly executionSeconds = new Histogram({
    name: 'tickwheel_execution_duration_seconds',
    help: 'Handler run time per attempt, seconds',
    labelNames: ['handler', 'outcome'] as const,
    buckets: [0.005, 0.01, 0.05, 0.1, 0.5, 1, 5, 15, 60, 300],
    registers: [this.registry],
  });

  readonly triggerLatenessSeconds = new Histogram({
    name: 'tickwheel_trigger_lateness_seconds',
    help: 'Actual fire (ids pushed to their executors) minus scheduled fire time, seconds',
    buckets: [0.001, 0.005, 0.01, 0.02, 0.05, 0.1, 0.25, 0.5, 1, 2, 5, 30],
    registers: [this.registry],
  });

  readonly lateFireStarts = new Counter({
    name: 'tickwheel_late_fire_starts_total',
    help:
      'First attempts of scheduled job fires (SCHEDULE, MISFIRE) started more than LATE_FIRE_WARN_MS after their ' +
      'fire time, counted by the process that claimed them (each also logged, at most one line a job a minute)',
    registers: [this.registry],
  });

  readonly clockOffsetSeconds = new Gauge({
    name: 'tickwheel_clock_offset_seconds',
    help:
      "The database's clock minus this process's, seconds, estimated every 30 s over a round trip (positive: this " +
      "clock is behind); 0 on SQLite, whose clock is this host's",
    registers: [this.registry],
  });

  readonly misfires = new Counter({
    name: 'tickwheel_misfires_total',
    help: 'Fires handled by a misfire policy, by policy: each missed fire time run late, skipped or folded into one',
    labelNames: ['policy'] as const,
    registers: [this.registry],
  });

  readonly queueFull = new Counter({
    name: 'tickwheel_overlap_queue_full_total',
    help: 'Fires of overlap QUEUE jobs recorded as skipped (OVERLAP_QUEUE_FULL): queueLimit fires were already waiting',
    registers: [this.registry],
  });

  readonly dueNotFired = new Counter({
    name: 'tickwheel_due_not_fired_total',
    help: 'Fires still without a ledger row DUE_ALERT_AFTER_MS after their time (each job fire counted once)',
    registers: [this.registry],
  });

  readonly wheelSize = new Gauge({
    name: 'tickwheel_wheel_size',
    help: 'Fires held by the leader (timing wheel / pre-read horizon)',
    registers: [this.registry],
  });

  readonly leader = new Gauge({
    name: 'tickwheel_leader',
    help: '1 when this process holds the scheduler leadership',
    registers: [this.registry],
  });

  readonly leaderAcquisitions = new Counter({
    name: 'tickwheel_leader_acquisitions_total',
    help: 'Times this process became scheduler leader (a sum over pods counts leadership changes)',
    registers: [this.registry],
  });

  readonly executorHeartbeatAge = new Gauge({
    name: 'tickwheel_executor_heartbeat_age_seconds',
    help:
      "Seconds since each registered executor's last heartbeat, as of the leader's last offline check " +
      '(a node drops out once it is removed)',
    labelNames: ['node'] as const,
    registers: [this.registry],
  });

  readonly liveExecutors = new Gauge({
    name: 'tickwheel_live_executors',
    help: 'Executor nodes with a recent heartbeat (as seen by the leader)',
    registers: [this.registry],
  });

  readonly tasksWaitingUnadvertised = new Gauge({
    name: 'tickwheel_tasks_waiting_unadvertised',
    help:
      'Due PENDING instances whose handler no live executor or app worker advertises, by handler (at most 50 ' +
      "handlers, the rest summed as handler=other), as of the leader's last gauges pass",
    labelNames: ['handler'] as const,
    registers: [this.registry],
  });

  readonly queueDepth = new Gauge({
    name: 'tickwheel_queue_depth',
    help:
      "Ids in a live node's ready list (list=ready) and claimed but not finished (list=processing), " +
      "as of the leader's last repair pass",
    labelNames: ['node', 'list'] as const,
    registers: [this.registry],
  });

  readonly leaseExpiries = new Counter({
    name: 'tickwheel_lease_expiries_total',
    help:
      'Instances taken back from an executor: reason NODE_LOST (node stopped beating) ' +
      'or LEASE_LOST (lease ran out)',
    labelNames: ['reason'] as const,
    registers: [this.registry],
  });

  readonly rowsQuarantined = new Counter({
    name: 'tickwheel_rows_quarantined_total',
    help:
      'Rows set aside because their stored data cannot be read (reason CORRUPT_ROW: instances marked FAILED, ' +
      'job schedules stopped in ERROR) instead of stopping a background loop',
    labelNames: ['reason'] as const,
    registers: [this.registry],
  });

  readonly progressWrites = new Counter({
    name: 'tickwheel_progress_writes_total',
    help:
      'Progress rows written for ctx.progress, by outcome: stored, stale (the attempt had ended or lost the row), ' +
      'failed (the write failed; the handler goes on)',
    labelNames: ['outcome'] as const,
    registers: [this.registry],
  });

  readonly progressCoalesced = new Counter({
    name: 'tickwheel_progress_reports_coalesced_total',
    help: 'Progress reports replaced by a later one of the same attempt before being written (per write interval)',
    registers: [this.registry],
  });

  readonly callbackDeliveries = new Counter({
    name: 'tickwheel_callback_deliveries_total',
    help: 'Callback tries by outcome: delivered (2xx), retry (another try planned), failed (CALLBACK_FAILED)',
    labelNames: ['outcome'] as const,
    registers: [this.registry],
  });

  readonly callbackLatencySeconds = new Histogram({
    name: 'tickwheel_callback_latency_seconds',
    help: "Instance's final state to the receiver's 2xx, seconds",
    buckets: [0.01, 0.05, 0.1, 0.25, 0.5, 1, 5, 30, 120, 600, 3600],
    registers: [this.registry],
  });

  readonly callbackOutboxDepth = new Gauge({
    name: 'tickwheel_callback_outbox_depth',
    help: 'Callback deliveries not yet delivered nor failed (PENDING, RETRYING)',
    registers: [this.registry],
  });

  readonly callbackOutboxOldestSeconds = new Gauge({
    name: 'tickwheel_callback_outbox_oldest_seconds',
    help: 'Age of the oldest undelivered callback since its final state, seconds (0 when none)',
    registers: [this.registry],
  });

  readonly callbackHostsDown = new Gauge({
    name: 'tickwheel_callback_hosts_down',
    help: "Callback receiver hosts marked down, per app (an app's (app, host:port) pairs; their deliveries fail fast)",
    registers: [this.registry],
  });

  readonly notificationDeliveries = new Counter({
    name: 'tickwheel_notification_deliveries_total',
    help: 'Notification tries by channel (webhook, chat, email) and outcome: delivered, retry, failed (FAILED)',
    labelNames: ['channel', 'outcome'] as const,
    registers: [this.registry],
  });

  readonly notificationOutboxWaiting = new Gauge({
    name: 'tickwheel_notification_outbox_waiting',
    help: "Notification deliveries waiting to be sent (PENDING, RETRYING) in this node's namespace",
    registers: [this.registry],
  });

  readonly handlerLogLinesDropped = new Counter({
    name: 'tickwheel_handler_log_lines_dropped_total',
    help: 'Handler log lines not kept: limit (past HANDLER_LOG_MAX_LINES/BYTES of an attempt), flush_failed (lost)',
    labelNames: ['reason'] as const,
    registers: [this.registry],
  });

  readonly retentionRowsRemoved = new Counter({
    name: 'tickwheel_retention_rows_removed_total',
    help: 'Rows removed by retention (RETENTION_*), by table',
    labelNames: ['table'] as const,
    registers: [this.registry],
  });

  readonly dbErrors = new Counter({
    name: 'tickwheel_db_errors_total',
    help:
      'Failed database statements and connection attempts, by kind: conflict (unique key, deadlock, lock wait; ' +
      'handled), connection (lost, refused, killed, busy), other',
    labelNames: ['kind'] as const,
    registers: [this.registry],
  });

  readonly redisErrors = new Counter({
    name: 'tickwheel_redis_errors_total',
    help:
      "Redis errors, by kind: connection (a client's error event: refused, lost, timed out), " +
      'command (a command answered with an error or failed without an answer)',
    labelNames: ['kind'] as const,
    registers: [this.registry],
  });

  readonly shardMoves = new Counter({
    name: 'tickwheel_shard_moves_total',
    help:
      'Shards of SHARDING_BROADCAST jobs given a new owner, by kind: migration (a reshard, one shard at a time, ' +
      'after its run on the old owner ended), failover (the owner left: at once)',
    labelNames: ['kind'] as const,
    registers: [this.registry],
  });

  constructor() {
    collectDefaultMetrics({ register: this.registry, prefix: 'tickwheel_' });
    // Series whose label values are known exist at 0 from the start: increase() and rate() cannot see a
    // series' first sample as an increase, so a pod's first event would otherwise go unseen.
    const counters = {
      instancesFinished: this.instancesFinished,
      misfires: this.misfires,
      leaseExpiries: this.leaseExpiries,
      rowsQuarantined: this.rowsQuarantined,
      progressWrites: this.progressWrites,
      callbackDeliveries: this.callbackDeliveries,
      handlerLogLinesDropped: this.handlerLogLinesDropped,
      retentionRowsRemoved: this.retentionRowsRemoved,
      dbErrors: this.dbErrors,
      redisErrors: this.redisErrors,
      shardMoves: this.shardMoves,
    } satisfies Record<keyof typeof KNOWN_LABELS, Counter<string>>;
    for (const [key, counter] of Object.entries(counters)) {
      const { label, values } = KNOWN_LABELS[key as keyof typeof KNOWN_LABELS];
      for (const value of values) (counter as Counter<string>).inc({ [label]: value }, 0);
    }
    for (const channel of NOTIFICATION_LABELS.channel)
      for (const outcome of NOTIFICATION_LABELS.outcome) this.notificationDeliveries.inc({ channel, outcome }, 0);
  }

  /**
   * Creates the execution duration series of each of `handlers` (the handlers an executor serves) for every
   * outcome, at 0, so TickwheelTaskFailureRateHigh sees a quiet handler's first failures.
   */
  zeroExecutions(handlers: readonly string[]): void {
    for (const handler of handlers)
      for (const outcome of EXECUTION_OUTCOMES) this.executionSeconds.zero({ handler, outcome });
  }
}
