import { Column, Entity, Index, PrimaryColumn } from 'typeorm';
import { type AttemptStatus } from '../state-machine/attempt-status.js';
import { bigintNumber } from './columns.js';

/**
 * One row per attempt of an instance: which node ran it, with which fencing token, and how it ended
 * (docs/data-model.md).
 */
@Entity('job_attempt')
@Index('uq_job_attempt_instance_attempt', ['instanceId', 'attempt'], { unique: true })
export class JobAttempt {
  @PrimaryColumn({ type: 'varchar', length: 36 }) id: string;
  @Column({ name: 'instance_id', type: 'varchar', length: 36 }) instanceId: string;
  @Column({ type: 'int' }) attempt: number;
  @Column({ name: 'node_id', type: 'varchar', length: 128 }) nodeId: string;
  @Column({ name: 'fencing_token', type: 'bigint', transformer: bigintNumber }) fencingToken: number;
  @Column({ type: 'varchar', length: 16 }) status: AttemptStatus;
  @Column({ name: 'started_at', type: 'bigint', transformer: bigintNumber }) startedAt: number;
  @Column({ name: 'finished_at', type: 'bigint', nullable: true, transformer: bigintNumber }) finishedAt: number | null;
  @Column({ type: 'text', nullable: true }) error: string | null;
  /** When the handler really returned; later than finishedAt when it ignored its abort (docs/long-tasks.md). */
  @Column({ name: 'handler_ended_at', type: 'bigint', nullable: true, transformer: bigintNumber })
  handlerEndedAt: number | null;
  /** A late completion: how a handler that returned after its attempt was recorded ended; never applied. */
  @Column({ name: 'late_status', type: 'varchar', length: 16, nullable: true }) lateStatus: string | null;
  @Column({ name: 'late_error', type: 'varchar', length: 1024, nullable: true }) lateError: string | null;
  /** This attempt started while an earlier attempt of the same instance was still running its handler. */
  @Column({ name: 'overlaps_previous', type: 'boolean', default: false }) overlapsPrevious: boolean;
}
