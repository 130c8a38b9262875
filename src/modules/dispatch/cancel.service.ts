import { Inject, Injectable, Logger } from '@nestjs/common';
import { CLOCK, type Clock } from '../../common/index.js';
import { COORDINATION, type CoordinationPort, INSTANCE_STOP_CHANNEL } from '../coordination/index.js';
import { FINAL_STATUSES, JobAttemptRepository, JobInstance, JobInstanceRepository, JobInstanceStatus, type Tx } from '../metadata/index.js';
import { MetricsService } from '../observability/index.js';
import { Admission } from './admission/index.js';
import { DispatchService } from './dispatch.service.js';

/** Rounds of read-and-cancel before a cancel that keeps losing to the row's moves gives up. */
const CANCEL_TRIES = 10;

/** Work committed with a cancel that won (its audit row), given the row as it was before the cancel. */
export type InCancelTransaction = (em: Tx, row: JobInstance) => Promise<void>;

/**
 * Cancels instances (docs/state-machine.md, docs/admission.md): any unfinished status → CANCELLED in one
 * conditional write. A RUNNING instance's executor is told at once (signal {@link INSTANCE_STOP_CHANNEL}; its
 * heartbeat check is the backstop) and aborts the handler; the instance keeps its job's slot and QUEUE turn for
 * the stop grace (Admission), which its executor ends once the handler stopped. Any other unfinished instance
 * frees its slot and the job's next WAITING instance is promoted at once.
 */
@Injectable()
export class CancelService {
  private readonly logger = new Logger(CancelService.name);

  constructor(
    private readonly instances: JobInstanceRepository,
    private readonly attempts: JobAttemptRepository,
    private readonly dispatch: DispatchService,
    private readonly metrics: MetricsService,
    private readonly admission: Admission,
    @Inject(COORDINATION) private readonly coordination: CoordinationPort,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  /**
   * Cancels the instance `row` (as read by the caller). The row may move meanwhile (a promotion, a dispatch, a
   * claim, a retry): a transition that lost to such a move is tried again on a fresh read, so the cancel is not
   * dropped while the instance goes on to run. Gives up only after {@link CANCEL_TRIES} lost rounds.
   * @param inTx with it, the winning transition and `inTx` commit in one transaction (an API cancel and its
   *   audit row): when `inTx` throws, nothing is cancelled and the error propagates.
   * @returns true when this call cancelled it; false when it was already final (or ended meanwhile).
   */
  async cancel(row: JobInstance, reason: string, inTx?: InCancelTransaction): Promise<boolean> {
    for (let round = 1; ; round++) {
      if (FINAL_STATUSES.has(row.status)) return false;
      if (await this.cancelAsRead(row, reason, inTx)) return true;
      const fresh = round < CANCEL_TRIES ? await this.instances.findById(row.id) : null;
      if (!fresh) return false;
      row = fresh;
    }
  }

  /** One conditional cancel of `row` in the status and attempt it was read with; false when the row moved. */
  private async cancelAsRead(row: JobInstance, reason: string, inTx?: InCancelTransaction): Promise<boolean> {
    const now = this.clock.now();
    const patch = { finishedAt: now, leaseUntil: this.admission.stopGraceOnCancel(row, now), error: reason.slice(0, 1000) };
    const transition = (em?: Tx) =>
      this.instances.transition(row.id, row.status, JobInstanceStatus.CANCELLED, { attempt: row.attempt }, patch, now, em);
    const won = !inTx ? await transition() : await this.instances.transaction(async (em) => {
      const w = await transition(em);
      if (w) await inTx(em, row);
      return w;
    });
    if (!won) return false;
    this.metrics.instancesFinished.inc({ status: JobInstanceStatus.CANCELLED });
    if (row.status !== JobInstanceStatus.RUNNING) {
      await this.admission.free(row, this.dispatch);
      return true;
    }
    await this.attempts.finish(row.id, row.attempt, JobInstanceStatus.CANCELLED, reason, now);
    // Held before the signal goes, so the executor's free comes after it.
    await this.admission.holdForStopGrace(row, now);
    await this.coordination.publish(INSTANCE_STOP_CHANNEL, row.id).catch((err: Error) => this.logger.warn(
      `stop signal for ${row.id} not sent (its executor sees the cancel at its next heartbeat): ${err.message}`));
    return true;
  }
}
