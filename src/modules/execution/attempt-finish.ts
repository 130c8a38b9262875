import { Inject, Injectable, Logger } from '@nestjs/common';
import { CLOCK, type Clock } from '../../common/index.js';
import { DelayFeed } from '../coordination/index.js';
import { AttemptStatus, JobAttemptRepository, JobInstance, JobInstanceStatus as S } from '../metadata/index.js';
import { type FinishedStatusLabel, type LabelsMatch, MetricsService } from '../observability/index.js';
import { ATTEMPT_ADMISSION, type AttemptAdmission, type HandOff } from './attempt-admission.hook.js';
import { ATTEMPT_ENDED_HOOK, type AttemptEndedHook } from './attempt-ended.hook.js';
import type { HandlerRun, HandlerSettled } from './attempt-execution.js';
import { FinishWriter } from './finish-writer.js';
import { JobRunMetrics } from './job-run-metrics.js';
import { type AttemptOutcome, decideOutcome } from './outcome-policy.js';

type FinalStatus = Exclude<`${S}`, 'PENDING' | 'WAITING' | 'DISPATCHED' | 'RUNNING'>;
const _statusLabels: LabelsMatch<FinalStatus, FinishedStatusLabel> = true;

/** One attempt as it ended on this node: its claim (token, node, claim time), its outcome and its handler's run. */
export interface FinishedRun {
  row: JobInstance;
  token: number;
  nodeId: string;
  startedAt: number;
  outcome: AttemptOutcome;
  handler: HandlerRun | null;
  /** How the handler ended, if it had when the outcome was decided (null: late, or it never ran). */
  endedInTime: HandlerSettled | null;
}

/** What a finish came to: whether its write won, and the row's status and finality as the policy decided them. */
export interface FinishResult {
  won: boolean;
  status: S;
  final: boolean;
}

/**
 * What an ended attempt sets off (docs/execution.md "Finishing writes"): {@link decideOutcome}, the finishing write
 * ({@link FinishWriter}), after a won one the retry's delay queue, metrics and the attempt-ended hook, and in every
 * case admission's decision (ATTEMPT_ADMISSION); the handler's real end when the write did not carry it.
 */
@Injectable()
export class AttemptFinish {
  private readonly logger = new Logger(AttemptFinish.name);

  constructor(
    @Inject(FinishWriter) private readonly writes: Pick<FinishWriter, 'submit'>,
    @Inject(JobAttemptRepository) private readonly attempts: Pick<JobAttemptRepository, 'recordHandlerEnd'>,
    @Inject(MetricsService) private readonly metrics: Pick<MetricsService, 'retries'>,
    @Inject(JobRunMetrics) private readonly runs: Pick<JobRunMetrics, 'finished'>,
    @Inject(DelayFeed) private readonly delays: Pick<DelayFeed, 'schedule' | 'wakePump'>,
    @Inject(ATTEMPT_ADMISSION) private readonly admission: AttemptAdmission,
    @Inject(ATTEMPT_ENDED_HOOK) private readonly attemptEnded: AttemptEndedHook,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  /**
   * Records `run`'s end and sets off what follows it; says whether its write won and what it decided (an app
   * worker's finish answers with it, docs/workers.md). Rejects only when admission or the hook throws.
   */
  async finish(run: FinishedRun): Promise<FinishResult> {
    const { row, handler, endedInTime } = run;
    const result = await this.write(run);
    if (!handler) return result;
    // Late: the outcome was decided without the handler's end, or its write lost (a take-back recorded the attempt).
    if (endedInTime === null || !result.won) this.recordHandlerEnd(row, run.token, handler, 'late');
    // A stop (cancel, or taken away) always "wins", and its attempt row closes unless a take-back closed it first:
    // in that case the end is late too, which only the row can tell.
    else if (run.outcome.status === S.CANCELLED) this.recordHandlerEnd(row, run.token, handler, 'unlessStoppedHere');
    return result;
  }

  /** The finishing write and what follows it; won when its attempt row closed (the handler's end on it). */
  private async write(run: FinishedRun): Promise<FinishResult> {
    const { row, token, outcome } = run;
    const at = this.clock.now();
    const decision = decideOutcome(row, { kind: 'ran', outcome }, at);
    const { status, patch } = decision;
    const attempt = { token, nodeId: run.nodeId, startedAt: run.startedAt };
    const handlerEndedAt = run.endedInTime?.at ?? null;
    const won = await this.writes.submit({ row, ...attempt, outcome, status, patch, at, handlerEndedAt });
    if (won instanceof Error) {
      this.logger.error({
        traceId: row.traceId,
        msg:
          `instance ${row.id} attempt ${row.attempt}: finishing write failed (${won.message}); ` +
          'the row stays RUNNING until its lease ends',
      });
      return { won: false, status, final: false };
    }
    const now = this.clock.now();
    const cancelled = outcome.status === S.CANCELLED;
    if (cancelled || !won) {
      const what = cancelled
        ? 'stopped while running (cancelled, or taken away from this node); its result is not recorded'
        : `finishing write rejected (lease lost, token ${token} is stale), or the instance was cancelled`;
      this.logger.warn({ traceId: row.traceId, msg: `instance ${row.id} attempt ${row.attempt}: ${what}` });
      const end = { kind: cancelled ? 'stopped' : 'finishLost', fencingToken: token } as const;
      await this.admission.ended(row, end, this.promoted);
      return { won, status, final: won };
    }
    const retry = decision.verdict === 'RETRY' || decision.verdict === 'HAND_BACK';
    if (retry) {
      if (decision.verdict === 'RETRY') this.metrics.retries.inc();
      await this.delays.schedule(row.id, decision.dueAt).then(
        () => decision.dueAt <= now && this.delays.wakePump(),
        () => undefined,
      );
    } else {
      this.runs.finished(row, decision.status);
    }
    await this.admission.ended(row, { kind: 'finished', final: !retry }, this.promoted);
    const ended = { instanceId: row.id, jobId: row.jobId, status: decision.status, final: !retry, at: now };
    await this.attemptEnded.attemptEnded(ended);
    return { won: true, status: decision.status, final: !retry };
  }

  /**
   * The handler's real end on its attempt row (best effort): a `late` one's outcome too, and later attempts of the
   * instance that started meanwhile marked as overlapping.
   */
  private recordHandlerEnd(
    row: JobInstance,
    token: number,
    handler: HandlerRun,
    late: 'late' | 'unlessStoppedHere',
  ): void {
    const unlessEndedAs = late === 'unlessStoppedHere' ? AttemptStatus.CANCELLED : undefined;
    void handler.settled
      .then((end) =>
        this.attempts.recordHandlerEnd({
          instanceId: row.id,
          attempt: row.attempt,
          fencingToken: token,
          endedAt: end.at,
          late: { status: end.status, error: end.error, unlessEndedAs },
        }),
      )
      .catch((err: Error) =>
        this.logger.warn({ traceId: row.traceId, msg: `instance ${row.id}: handler end not recorded: ${err.message}` }),
      );
  }

  private readonly promoted: HandOff = {
    // a promoted WAITING instance goes to the leader's delay pump, due now
    handOff: async (row) => {
      await this.delays.schedule(row.id, row.dueAt);
      this.delays.wakePump();
    },
  };
}
