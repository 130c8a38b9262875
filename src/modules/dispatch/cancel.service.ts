import { Inject, Injectable } from '@nestjs/common';
import { CLOCK, type Clock } from '../../common/index.js';
import { FINAL_STATUSES, JobAttemptRepository, JobInstance, JobInstanceRepository, JobInstanceStatus } from '../metadata/index.js';
import { COORDINATION, type CoordinationPort, jobSlots } from '../coordination/coordination.port.js';
import { MetricsService } from '../observability/index.js';
import { DispatchService } from './dispatch.service.js';

/**
 * Cancels instances (DESIGN §4, §7): any unfinished status → CANCELLED in one conditional write. A
 * RUNNING instance's executor sees the row change at its next cancellation check (every heartbeat) and
 * aborts the handler's signal; its own finishing write then loses, as the row is no longer RUNNING.
 * When the cancelled instance held a QUEUE job's turn, the next WAITING instance is released.
 */
@Injectable()
export class CancelService {
  constructor(
    private readonly instances: JobInstanceRepository,
    private readonly attempts: JobAttemptRepository,
    private readonly dispatch: DispatchService,
    private readonly metrics: MetricsService,
    @Inject(COORDINATION) private readonly coordination: CoordinationPort,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  /** @returns true when this call cancelled it; false when it was already final or another writer won. */
  async cancel(row: JobInstance, reason: string): Promise<boolean> {
    if (FINAL_STATUSES.has(row.status)) return false;
    const now = this.clock.now();
    const won = await this.instances.transition(row.id, row.status, JobInstanceStatus.CANCELLED, { attempt: row.attempt },
      { finishedAt: now, leaseUntil: null, error: reason.slice(0, 1000) }, now);
    if (!won) return false;
    this.metrics.instancesFinished.inc({ status: JobInstanceStatus.CANCELLED });
    if (row.status === JobInstanceStatus.RUNNING) await this.attempts.finish(row.id, row.attempt, JobInstanceStatus.CANCELLED, reason, now);
    if (row.jobId) await this.freeSlot(row.jobId, row.id, row.maxConcurrency);
    return true;
  }

  /**
   * An instance of `jobId` left DISPATCHED/RUNNING (cancelled, lost with its node): frees its
   * maxConcurrency slot (when the job has a limit) and releases the job's next WAITING instance.
   */
  async freeSlot(jobId: string, instanceId: string, maxConcurrency: number): Promise<void> {
    if (maxConcurrency > 0) await this.coordination.releaseSlot(jobSlots(jobId), instanceId);
    await this.releaseNext(jobId);
  }

  /** QUEUE overlap and maxConcurrency: releases and dispatches the job's next WAITING instance if there is room. */
  async releaseNext(jobId: string): Promise<void> {
    const released = await this.instances.releaseNextWaiting(jobId, this.clock.now());
    if (released) await this.dispatch.dispatchRows([released]);
  }
}
