import { Inject, Injectable, Logger } from '@nestjs/common';
import { CLOCK, type Clock, cutText } from '../../common/index.js';
import { INSTANCE_STOP_CHANNEL, SIGNALS, type SignalPort } from '../coordination/index.js';
import {
  CallbackDeliveryRepository,
  FINAL_STATUSES,
  JobAttemptRepository,
  InstanceReads,
  InstanceTransitions,
  JobInstance,
  JobInstanceStatus,
  type Tx,
  UnitOfWork,
} from '../metadata/index.js';
import { JobRunMetrics } from '../execution/index.js';
import { Admission } from './admission/index.js';
import { DispatchService } from './dispatch.service.js';

/** Rounds of read-and-cancel before a cancel that keeps losing to the row's moves gives up. */
const CANCEL_TRIES = 10;

/** Work committed with a cancel that won (its audit row), given the row as read before the cancel. */
export type InCancelTransaction = (em: Tx, row: JobInstance) => Promise<void>;

/**
 * Cancels instances (docs/state-machine.md): any unfinished status → CANCELLED in one conditional write. A RUNNING
 * instance's executor is signalled ({@link INSTANCE_STOP_CHANNEL}; its heartbeat is the backstop) and the instance
 * keeps its slot and QUEUE turn for the stop grace (docs/admission.md); any other frees them at once.
 */
@Injectable()
export class CancelService {
  private readonly logger = new Logger(CancelService.name);

  constructor(
    private readonly reads: InstanceReads,
    private readonly transitions: InstanceTransitions,
    private readonly attempts: JobAttemptRepository,
    private readonly dispatch: DispatchService,
    private readonly runs: JobRunMetrics,
    private readonly admission: Admission,
    @Inject(SIGNALS) private readonly signals: SignalPort,
    @Inject(CLOCK) private readonly clock: Clock,
    private readonly uow: UnitOfWork,
    private readonly deliveries: CallbackDeliveryRepository,
  ) {}

  /**
   * Cancels `row` (as read), again on a fresh read when the row moved meanwhile. @param inTx committed with the
   * winning transition (when it throws, nothing is cancelled). @returns false when it was (or became) final.
   */
  async cancel(row: JobInstance, reason: string, inTx?: InCancelTransaction): Promise<boolean> {
    for (let round = 1; ; round++) {
      if (FINAL_STATUSES.has(row.status)) return false;
      if (await this.cancelAsRead(row, reason, inTx)) return true;
      const fresh = round < CANCEL_TRIES ? await this.reads.findById(row.id) : null;
      if (!fresh) return false;
      row = fresh;
    }
  }

  /**
   * One conditional cancel of `row` in the status and attempt it was read with, committed with its callback
   * delivery (docs/callbacks.md "Outbox") and `inTx`; false when the row moved.
   */
  private async cancelAsRead(row: JobInstance, reason: string, inTx?: InCancelTransaction): Promise<boolean> {
    const now = this.clock.now();
    const leaseUntil = this.admission.stopGraceOnCancel(row, now);
    const patch = { finishedAt: now, leaseUntil, error: cutText(reason, 1000) };
    const guard = { attempt: row.attempt };
    const to = JobInstanceStatus.CANCELLED;
    const won = await this.uow.run(async (em: Tx) => {
      if (!(await this.transitions.transition(row.id, row.status, to, guard, patch, now, em))) return false;
      await this.deliveries.enqueueFinal(em, [{ ...row, finalStatus: to }], now);
      if (inTx) await inTx(em, row);
      return true;
    });
    if (!won) return false;
    this.runs.finished(row, JobInstanceStatus.CANCELLED);
    const running = row.status === JobInstanceStatus.RUNNING;
    if (running) await this.closeAttempt(row, reason, now);
    // A running instance's slot is held for its stop grace before the signal goes, so the executor's free comes after.
    await this.admission.ended(row, { kind: 'cancelled', from: row.status, at: now }, this.dispatch);
    if (!running) return true;
    await this.signals
      .publish(INSTANCE_STOP_CHANNEL, row.id)
      .catch((err: Error) =>
        this.logger.warn(
          `stop signal for ${row.id} not sent (its executor sees the cancel at its next heartbeat): ${err.message}`,
        ),
      );
    return true;
  }

  /**
   * The running attempt's row, CANCELLED, from the row as read: its executor writes none before the attempt ends
   * (an executor that wrote it first keeps its own). After the cancel's commit, as the stop grace's cut is.
   */
  private async closeAttempt(row: JobInstance, reason: string, now: number): Promise<void> {
    const nodeId = row.nodeId ?? 'unknown';
    await this.attempts.start(row.id, row.attempt, nodeId, row.fencingToken, row.startedAt ?? now);
    await this.attempts.finish(row.id, row.attempt, JobInstanceStatus.CANCELLED, reason, now);
  }
}
