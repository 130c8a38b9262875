import { Column, Entity, Index, PrimaryColumn, VersionColumn } from 'typeorm';
import type { TimeoutMode } from '../../../common/index.js';
import { bigintNumber, jsonText } from './columns.js';
import {
  BackoffKind,
  MisfirePolicy,
  OverlapPolicy,
  type PausedReason,
  RoutingStrategy,
  ScheduleState,
  TriggerType,
} from './enums.js';

/** What runs and when (docs/data-model.md); `code` is unique per namespace and owner app. Times epoch ms UTC. */
@Entity('job_definition')
@Index('uq_job_definition_ns_app_code', ['namespace', 'appId', 'code'], { unique: true })
@Index('ix_job_definition_ns_due', ['namespace', 'enabled', 'nextFireTime'])
@Index('uq_job_definition_ns_metrics_slot', ['namespace', 'metricsSlot'], { unique: true })
export class JobDefinition {
  @PrimaryColumn({ type: 'varchar', length: 36 }) id: string;
  @Column({ type: 'varchar', length: 64 }) namespace: string;
  /** The owning API client; other apps (but `admin`) get 404 for this job. */
  @Column({ name: 'app_id', type: 'varchar', length: 64 }) appId: string;
  @Column({ type: 'varchar', length: 128 }) code: string;
  @Column({ type: 'varchar', length: 255, nullable: true }) description: string | null;
  @Column({ type: 'varchar', length: 128 }) handler: string;
  /** Where each instance's final state is posted (docs/callbacks.md); null: the app's registrations decide. */
  @Column({ name: 'callback_url', type: 'varchar', length: 2048, nullable: true }) callbackUrl: string | null;
  @Column({ name: 'trigger_type', type: 'varchar', length: 16 }) triggerType: TriggerType;
  @Column({ name: 'trigger_expr', type: 'varchar', length: 255, nullable: true }) triggerExpr: string | null;
  @Column({ name: 'time_zone', type: 'varchar', length: 64, default: 'UTC' }) timeZone: string;
  @Column({ type: 'text', nullable: true, transformer: jsonText }) params: Record<string, unknown> | null;
  @Column({ name: 'routing_strategy', type: 'varchar', length: 32 }) routingStrategy: RoutingStrategy;
  @Column({ name: 'routing_key', type: 'varchar', length: 255, nullable: true }) routingKey: string | null;
  @Column({ name: 'shard_total', type: 'int', default: 1 }) shardTotal: number;
  @Column({ name: 'shard_params', type: 'text', nullable: true, transformer: jsonText }) shardParams: unknown[] | null;
  @Column({ name: 'misfire_policy', type: 'varchar', length: 16 }) misfirePolicy: MisfirePolicy;
  @Column({ name: 'overlap_policy', type: 'varchar', length: 16 }) overlapPolicy: OverlapPolicy;
  @Column({ name: 'max_concurrency', type: 'int', default: 0 }) maxConcurrency: number;
  /** Most WAITING fires under overlap QUEUE; a fire past it is recorded CANCELLED (OVERLAP_QUEUE_FULL). */
  @Column({ name: 'queue_limit', type: 'int', default: 10 }) queueLimit: number;
  @Column({ name: 'timeout_ms', type: 'int' }) timeoutMs: number;
  @Column({ name: 'retry_max', type: 'int', default: 0 }) retryMax: number;
  @Column({ name: 'retry_backoff_ms', type: 'int', default: 1000 }) retryBackoffMs: number;
  @Column({ name: 'retry_backoff_kind', type: 'varchar', length: 16 }) retryBackoffKind: BackoffKind;
  /** Copied to each instance: see JobInstance.heartbeatTimeoutMs; 0 = none. */
  @Column({ name: 'heartbeat_timeout_ms', type: 'int', default: 0 }) heartbeatTimeoutMs: number;
  @Column({ type: 'int', default: 3 }) priority: number;
  /** Copied to each instance: see JobInstance.timeoutMode. */
  @Column({ name: 'timeout_mode', type: 'varchar', length: 16, default: 'HARD' }) timeoutMode: TimeoutMode;
  @Column({ type: 'boolean' }) enabled: boolean;
  /** Why the system paused it (`CLIENT_DISABLED`: its owner's client is disabled); null: not paused by the system. */
  @Column({ name: 'paused_reason', type: 'varchar', length: 32, nullable: true }) pausedReason: PausedReason | null;
  /** When the system paused it (epoch ms), with `pausedReason`: later fires go to the misfire policy on enable. */
  @Column({ name: 'paused_at', type: 'bigint', nullable: true, transformer: bigintNumber }) pausedAt: number | null;
  /** Its slot among the namespace's JOB_METRICS_MAX with per-job metrics on (unique per namespace); null: off. */
  @Column({ name: 'metrics_slot', type: 'int', nullable: true }) metricsSlot: number | null;
  /** When a ONE_SHOT job made its fire (it is then disabled for good); null otherwise. */
  @Column({ name: 'completed_at', type: 'bigint', nullable: true, transformer: bigintNumber })
  completedAt: number | null;
  @Column({ name: 'schedule_state', type: 'varchar', length: 16 }) scheduleState: ScheduleState;
  @Column({ name: 'schedule_error', type: 'varchar', length: 1024, nullable: true }) scheduleError: string | null;
  @Column({ name: 'next_fire_time', type: 'bigint', nullable: true, transformer: bigintNumber })
  nextFireTime: number | null;
  @Column({ name: 'last_fire_time', type: 'bigint', nullable: true, transformer: bigintNumber })
  lastFireTime: number | null;
  @VersionColumn() version: number;
  @Column({ name: 'created_at', type: 'bigint', transformer: bigintNumber }) createdAt: number;
  @Column({ name: 'updated_at', type: 'bigint', transformer: bigintNumber }) updatedAt: number;
  @Column({ name: 'created_by', type: 'varchar', length: 64, nullable: true }) createdBy: string | null;
  @Column({ name: 'updated_by', type: 'varchar', length: 64, nullable: true }) updatedBy: string | null;
}
