import { Inject, Injectable, Logger } from '@nestjs/common';
import { CLOCK, type Clock } from '../../common/index.js';
import {
  CallbackDeliveryRepository,
  CORRUPT_ROW,
  corruptionOf,
  JobAttemptRepository,
  InstanceTransitions,
  JobInstance,
  JobInstanceStatus as S,
  UnitOfWork,
} from '../metadata/index.js';
import { JobRunMetrics } from '../execution/index.js';
import { type LabelsMatch, MetricsService, type QuarantineReasonLabel } from '../observability/index.js';
import { Admission } from './admission/index.js';
import { DispatchService } from './dispatch.service.js';

const _reasonLabels: LabelsMatch<typeof CORRUPT_ROW, QuarantineReasonLabel> = true;

/**
 * Sets aside instance rows whose stored data cannot be read (a TEXT cut at 65,535 bytes, a hand edit), so the loop
 * that met one goes on with the rest: FAILED with the reason, attempt closed, slot freed, counted and logged.
 */
@Injectable()
export class QuarantineService {
  private readonly logger = new Logger(QuarantineService.name);

  constructor(
    private readonly transitions: InstanceTransitions,
    private readonly attempts: JobAttemptRepository,
    private readonly admission: Admission,
    private readonly dispatch: DispatchService,
    private readonly metrics: MetricsService,
    @Inject(CLOCK) private readonly clock: Clock,
    private readonly uow: UnitOfWork,
    private readonly deliveries: CallbackDeliveryRepository,
    private readonly runs: JobRunMetrics,
  ) {}

  /** Quarantines the corrupt rows of `rows` and returns the others, in order. Never throws for one row. */
  async screen<T extends JobInstance>(rows: T[]): Promise<T[]> {
    const sound: T[] = [];
    for (const row of rows) {
      const reason = corruptionOf(row);
      if (reason === null) sound.push(row);
      else {
        await this.quarantine(row, reason).catch((err: Error) =>
          this.logger.error({
            traceId: row.traceId,
            msg: `instance ${row.id}: quarantine failed (${err.message}); tried again next pass`,
          }),
        );
      }
    }
    return sound;
  }

  /**
   * Marks `row` (as read) FAILED with `reason` in one conditional transition, closing its RUNNING attempt and
   * writing its callback delivery (docs/callbacks.md "Outbox") in the same transaction.
   * @returns whether this call moved it (false: another writer moved it first).
   */
  async quarantine(row: JobInstance, reason: string): Promise<boolean> {
    const now = this.clock.now();
    const running = row.status === S.RUNNING;
    const guard = running ? { attempt: row.attempt, fencingToken: row.fencingToken } : { attempt: row.attempt };
    const won = await this.uow.run(async (em) => {
      const patch = { leaseUntil: null, finishedAt: now, error: reason };
      const moved = await this.transitions.transition(row.id, row.status, S.FAILED, guard, patch, now, em);
      if (!moved) return false;
      if (running) {
        const nodeId = row.nodeId ?? 'unknown';
        await this.attempts.start(row.id, row.attempt, nodeId, row.fencingToken, row.startedAt ?? now, em);
        await this.attempts.finish(row.id, row.attempt, S.FAILED, reason, now, em);
      }
      // Only plain columns: the JSON ones are what is corrupt. A URL without a host gets no delivery, no throw.
      const { id, namespace, appId, handler, callbackUrl, jobId } = row;
      const final = { id, namespace, appId, handler, callbackUrl, jobId, finalStatus: S.FAILED };
      await this.deliveries.enqueueFinal(em, [final], now);
      return true;
    });
    if (!won) return false;
    this.metrics.rowsQuarantined.inc({ reason: CORRUPT_ROW });
    this.runs.finished(row, S.FAILED);
    const what = row.jobCode ?? `task ${row.requestId}`;
    this.logger.error({
      traceId: row.traceId,
      msg: `instance ${row.id} (${what}) quarantined, marked FAILED: ${reason}`,
    });
    await this.admission.ended(row, { kind: 'quarantined' }, this.dispatch);
    return true;
  }
}
