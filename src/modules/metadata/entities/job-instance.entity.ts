import { Column, Entity, Index, PrimaryColumn } from 'typeorm';
import type { TimeoutMode } from '../../../common/index.js';
import { bigintNumber, jsonText } from './columns.js';
import { RoutingStrategy, TriggerSource } from './enums.js';
import { JobInstanceStatus } from '../state-machine/job-instance-status.js';
import type { StagedKind } from '../instances/staged.js';

/**
 * One fire of a job, one API task, or one shard of a fire (docs/data-model.md). Unique (job_id, fire_time,
 * shard_index) makes a second fire a no-op; unique (app_id, request_id) is API idempotency. Times epoch ms UTC.
 */
@Entity('job_instance')
@Index('uq_job_instance_fire', ['jobId', 'fireTime', 'shardIndex'], { unique: true })
@Index('uq_job_instance_request', ['appId', 'requestId'], { unique: true })
@Index('ix_job_instance_status_fire', ['status', 'fireTime'])
@Index('ix_job_instance_node_status', ['nodeId', 'status'])
@Index('ix_job_instance_job_status', ['jobId', 'status', 'leaseUntil'])
export class JobInstance {
  @PrimaryColumn({ type: 'varchar', length: 36 }) id: string;
  @Column({ type: 'varchar', length: 64 }) namespace: string;
  @Column({ name: 'app_id', type: 'varchar', length: 64 }) appId: string;
  @Column({ name: 'request_id', type: 'varchar', length: 128 }) requestId: string;
  @Column({ name: 'request_hash', type: 'varchar', length: 64, nullable: true }) requestHash: string | null;
  @Column({ name: 'job_id', type: 'varchar', length: 36, nullable: true }) jobId: string | null;
  @Column({ name: 'job_code', type: 'varchar', length: 128, nullable: true }) jobCode: string | null;
  @Column({ type: 'varchar', length: 128 }) handler: string;
  @Column({ name: 'fire_time', type: 'bigint', transformer: bigintNumber }) fireTime: number;
  @Column({ name: 'shard_index', type: 'int', default: 0 }) shardIndex: number;
  @Column({ name: 'shard_total', type: 'int', default: 1 }) shardTotal: number;
  @Column({ name: 'trigger_source', type: 'varchar', length: 16 }) triggerSource: TriggerSource;
  @Column({ type: 'varchar', length: 16 }) status: JobInstanceStatus;
  /** Written ahead of its release time and untouched by any status write since (instances/staged.ts); null: not. */
  @Column({ type: 'varchar', length: 8, nullable: true }) staged: StagedKind | null;
  @Column({ type: 'int', default: 1 }) attempt: number;
  @Column({ name: 'max_attempts', type: 'int', default: 1 }) maxAttempts: number;
  @Column({ name: 'retry_backoff_ms', type: 'int', default: 1000 }) retryBackoffMs: number;
  @Column({ name: 'retry_backoff_kind', type: 'varchar', length: 16, default: 'FIXED' }) retryBackoffKind: string;
  @Column({ name: 'timeout_ms', type: 'int' }) timeoutMs: number;
  /** The job's maxConcurrency when the instance was made (0 = no limit; API tasks 0). */
  @Column({ name: 'max_concurrency', type: 'int', default: 0 }) maxConcurrency: number;
  @Column({ name: 'routing_strategy', type: 'varchar', length: 32, default: 'ROUND_ROBIN' })
  routingStrategy: RoutingStrategy;
  @Column({ name: 'routing_key', type: 'varchar', length: 255, nullable: true }) routingKey: string | null;
  @Column({ name: 'node_id', type: 'varchar', length: 128, nullable: true }) nodeId: string | null;
  @Column({ name: 'lease_until', type: 'bigint', nullable: true, transformer: bigintNumber }) leaseUntil: number | null;
  @Column({ name: 'fencing_token', type: 'bigint', default: 0, transformer: bigintNumber }) fencingToken: number;
  @Column({ type: 'text', nullable: true, transformer: jsonText }) params: unknown;
  @Column({ type: 'text', nullable: true, transformer: jsonText }) result: unknown;
  @Column({ type: 'text', nullable: true }) error: string | null;
  @Column({ name: 'trace_id', type: 'varchar', length: 64 }) traceId: string;
  /** The W3C traceparent its work continues (docs/observability.md "Tracing"); NULL before: see instanceTrace. */
  @Column({ type: 'varchar', length: 55, nullable: true }) traceparent: string | null;
  @Column({ name: 'callback_url', type: 'varchar', length: 2048, nullable: true }) callbackUrl: string | null;
  @Column({ name: 'task_name', type: 'varchar', length: 255, nullable: true }) taskName: string | null;
  /**
   * The handler's last checkpoint (docs/long-tasks.md "Checkpoints"): its JSON text as stored, the attempt and token
   * that wrote it. Up to 1 MiB, so never read with the row (select: false): the claim reads it only for rows whose
   * checkpoint_at is set. Raw text, no JSON transformer: an unreadable checkpoint must not quarantine the row.
   */
  @Column({ type: 'text', nullable: true, select: false }) checkpoint: string | null;
  @Column({ name: 'checkpoint_attempt', type: 'int', nullable: true }) checkpointAttempt: number | null;
  @Column({ name: 'checkpoint_token', type: 'bigint', nullable: true, transformer: bigintNumber })
  checkpointToken: number | null;
  @Column({ name: 'checkpoint_at', type: 'bigint', nullable: true, transformer: bigintNumber })
  checkpointAt: number | null;
  /** Last reported progress, a fraction 0..1, its note and when (docs/long-tasks.md "Progress"). */
  @Column({ type: 'double', nullable: true }) progress: number | null;
  @Column({ name: 'progress_note', type: 'varchar', length: 256, nullable: true }) progressNote: string | null;
  @Column({ name: 'progress_at', type: 'bigint', nullable: true, transformer: bigintNumber }) progressAt: number | null;
  /** A handler silent (no progress, no heartbeat) this long is stuck: TIMEOUT (HEARTBEAT_TIMEOUT); 0 = none. */
  @Column({ name: 'heartbeat_timeout_ms', type: 'int', default: 0 }) heartbeatTimeoutMs: number;
  /** 1 (lowest) to 5 (highest): the order within its app's turn on a node, aged by waiting (docs/dispatch.md). */
  @Column({ type: 'int', default: 3 }) priority: number;
  /** HARD: timeoutMs ends an attempt even while it reports; HEARTBEAT: only silence or MAX_RUN_TIME_MS does. */
  @Column({ name: 'timeout_mode', type: 'varchar', length: 16, default: 'HARD' }) timeoutMode: TimeoutMode;
  /** Earliest time the instance may be dispatched (delayed tasks, retry backoff). */
  @Column({ name: 'due_at', type: 'bigint', transformer: bigintNumber }) dueAt: number;
  @Column({ name: 'created_at', type: 'bigint', transformer: bigintNumber }) createdAt: number;
  @Column({ name: 'updated_at', type: 'bigint', transformer: bigintNumber }) updatedAt: number;
  @Column({ name: 'dispatched_at', type: 'bigint', nullable: true, transformer: bigintNumber })
  dispatchedAt: number | null;
  @Column({ name: 'started_at', type: 'bigint', nullable: true, transformer: bigintNumber }) startedAt: number | null;
  @Column({ name: 'finished_at', type: 'bigint', nullable: true, transformer: bigintNumber }) finishedAt: number | null;
}
