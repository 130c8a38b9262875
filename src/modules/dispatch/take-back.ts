import { Inject, Injectable, Logger } from '@nestjs/common';
import { CLOCK, type Clock } from '../../common/index.js';
import { decideOutcome, JobRunMetrics, type TakeBackReason } from '../execution/index.js';
import {
  CallbackDeliveryRepository,
  handBackMark,
  InstanceTransitions,
  JobAttemptRepository,
  JobInstance,
  JobInstanceStatus,
  type Tx,
  UnitOfWork,
} from '../metadata/index.js';
import { type LabelsMatch, type LeaseExpiryReasonLabel, MetricsService } from '../observability/index.js';
import { Admission } from './admission/index.js';
import { DispatchService } from './dispatch.service.js';
import { QuarantineService } from './quarantine.service.js';

/** Rows taken back at once (each its own small transaction), then dispatched in one call. */
const REQUEUE_CHUNK = 20;
const _reasonLabels: LabelsMatch<TakeBackReason, LeaseExpiryReasonLabel> = true;

/**
 * The reconciler's take-back of a lost node's or lease's rows (docs/dispatch.md "Reconciler", steps 3 and 4): each
 * row moves as {@link decideOutcome} says, its attempt closed in the same transaction, then admission is told and
 * the rows sent back to PENDING are dispatched again. A row's failure is logged; the next pass tries it again.
 */
@Injectable()
export class TakeBack {
  private readonly logger = new Logger(TakeBack.name);

  constructor(
    private readonly transitions: InstanceTransitions,
    private readonly attempts: JobAttemptRepository,
    private readonly uow: UnitOfWork,
    private readonly deliveries: CallbackDeliveryRepository,
    private readonly metrics: MetricsService,
    private readonly admission: Admission,
    private readonly dispatch: DispatchService,
    private readonly quarantine: QuarantineService,
    @Inject(CLOCK) private readonly clock: Clock,
    private readonly runs: JobRunMetrics,
  ) {}

  /**
   * Takes rows back from a lost node or lease, {@link REQUEUE_CHUNK} at a time, one dispatch per chunk; `pushed`:
   * the ids the node's lists held (a staged fire not among them was never released and stays staged).
   * @returns how many went back to PENDING (routed again) and how many ended FAILED (no attempt left).
   */
  async requeue(
    all: JobInstance[],
    reason: 'NODE_LOST' | 'LEASE_LOST',
    pushed?: Set<string>,
  ): Promise<{ routed: number; failed: number }> {
    const out = { routed: 0, failed: 0 };
    const rows = await this.quarantine.screen(all);
    for (let i = 0; i < rows.length; i += REQUEUE_CHUNK) {
      const back = await Promise.all(
        rows.slice(i, i + REQUEUE_CHUNK).map((row) =>
          this.takeBack(row, reason, pushed).catch((err: Error) => {
            this.logger.error(
              `taking back instance ${row.id} (${reason}) failed: ${err.message}; tried again next pass`,
            );
            return null;
          }),
        ),
      );
      const ids = back.filter((b): b is { id: string; routed: boolean } => b?.routed === true).map((b) => b.id);
      out.failed += back.filter((b) => b?.routed === false).length;
      out.routed += ids.length;
      if (ids.length > 0) await this.dispatch.dispatchIds(ids);
    }
    return out;
  }

  /**
   * Takes a row back as {@link decideOutcome} says; a final one (no attempt left) gets its callback delivery in
   * the same transaction (docs/callbacks.md "Outbox"). @returns its id and whether it went back to PENDING
   * (`routed`) or ended FAILED; null when another writer won the row.
   */
  private async takeBack(
    row: JobInstance,
    reason: TakeBackReason,
    pushed?: Set<string>,
  ): Promise<{ id: string; routed: boolean } | null> {
    const now = this.clock.now();
    const running = row.status === JobInstanceStatus.RUNNING;
    const decision = decideOutcome(row, running ? { kind: 'takenBack', reason } : { kind: 'notStarted' }, now);
    const backToPending = decision.verdict !== 'FAIL';
    const won = await this.uow.run(async (em) => {
      if (!running) {
        const guard = { attempt: row.attempt, nodeId: row.nodeId ?? undefined };
        const mark = pushed ? handBackMark(row, pushed) : null;
        return this.transitions.transition(row.id, row.status, decision.status, guard, decision.patch, now, em, mark);
      }
      const guard = { attempt: row.attempt, fencingToken: row.fencingToken };
      const { status, patch } = decision;
      const moved = await this.transitions.transition(row.id, row.status, status, guard, patch, now, em);
      if (!moved) return false;
      await this.closeAttempt(row, reason, now, em);
      if (!backToPending) await this.deliveries.enqueueFinal(em, [{ ...row, finalStatus: status }], now);
      return true;
    });
    if (!won) return null;
    if (running) {
      this.metrics.leaseExpiries.inc({ reason });
      if (backToPending) this.metrics.retries.inc();
      else this.runs.finished(row, JobInstanceStatus.FAILED);
    }
    await this.admission.ended(row, { kind: 'takenBack' }, this.dispatch);
    return { id: row.id, routed: backToPending };
  }

  /** Closes the attempt as `reason`, writing it first if the executor died before that (every attempt traceable). */
  private async closeAttempt(
    row: JobInstance,
    reason: 'NODE_LOST' | 'LEASE_LOST',
    now: number,
    em: Tx | undefined,
  ): Promise<void> {
    await this.attempts.start(row.id, row.attempt, row.nodeId ?? 'unknown', row.fencingToken, row.startedAt ?? now, em);
    await this.attempts.finish(row.id, row.attempt, reason, `${reason} on ${row.nodeId}`, now, em);
  }
}
