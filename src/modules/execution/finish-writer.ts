import { Inject, Injectable, Logger } from '@nestjs/common';
import { CLOCK, type Clock, GroupCommitter } from '../../common/index.js';
import { APP_CONFIG, type AppConfig } from '../../config/index.js';
import {
  CallbackDeliveryRepository,
  ExecutionLedger,
  InstanceTransitions,
  JobInstance,
  JobInstanceStatus as S,
  isTransientDbError,
  type Tx,
  withDbRetry,
  UnitOfWork,
} from '../metadata/index.js';
import type { AttemptOutcome } from './outcome-policy.js';

/** An ended attempt's finishing write: the row's new status and patch (decideOutcome), made at `at` (epoch ms). */
export interface FinishingWrite {
  row: JobInstance;
  token: number;
  /** The attempt's node and claim time (its attempt row is written by this write, docs/execution.md). */
  nodeId: string;
  startedAt: number;
  outcome: AttemptOutcome;
  status: S;
  patch: Partial<JobInstance>;
  at: number;
  /** When the handler returned, if it did before this write (else its end is recorded later, apart). */
  handlerEndedAt?: number | null;
}

const FINISH_BATCH = 256;

/** The final states a finishing write makes (CANCELLED only closes the attempt: its canceller wrote the state). */
const FINAL_HERE = new Set<S>([S.SUCCESS, S.FAILED, S.TIMEOUT]);

/**
 * The group commit of finishing writes (docs/execution.md): attempts that end while a transaction is open go
 * together in the next one. Each row's write is conditional on its fencing token (a group's SUCCESSes in one
 * UPDATE, other outcomes one transition each); the winners' attempt rows close, and the winners that reached a
 * final state get their callback delivery (docs/callbacks.md "Outbox"), in the same transaction.
 */
@Injectable()
export class FinishWriter {
  private readonly logger = new Logger(FinishWriter.name);
  private readonly groups = new GroupCommitter<FinishingWrite, boolean | Error>(
    (group) => this.writeGroup(group),
    FINISH_BATCH,
  );

  constructor(
    @Inject(InstanceTransitions) private readonly transitions: Pick<InstanceTransitions, 'transition'>,
    @Inject(ExecutionLedger) private readonly ledger: Pick<ExecutionLedger, 'succeed' | 'endAttempts' | 'findMany'>,
    @Inject(UnitOfWork) private readonly uow: Pick<UnitOfWork, 'run'>,
    @Inject(CallbackDeliveryRepository) private readonly deliveries: Pick<CallbackDeliveryRepository, 'enqueueFinal'>,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(APP_CONFIG) private readonly config: Pick<AppConfig, 'leaseMs'>,
  ) {}

  /** Resolves once committed: won (CANCELLED always: only its attempt closes), false (stale token), or the error. */
  submit(write: FinishingWrite): Promise<boolean | Error> {
    return this.groups.submit(write).catch((err: Error) => err);
  }

  /**
   * One attempt per instance and transaction, retried through transient errors for LEASE_MS (the leases are renewed
   * meanwhile: giving up sooner turns a result into a take-back); a group that still fails is written one by one
   * so a bad write fails alone (not after a transient error: the database is away for all).
   */
  private async writeGroup(group: FinishingWrite[]): Promise<Array<boolean | Error>> {
    const won = new Array<boolean | Error>(group.length).fill(false);
    let rest = group.map((write, index) => ({ write, index }));
    while (rest.length > 0) {
      const seen = new Set<string>();
      const round: typeof rest = [];
      const later: typeof rest = [];
      for (const entry of rest) {
        (seen.has(entry.write.row.id) ? later : round).push(entry);
        seen.add(entry.write.row.id);
      }
      const write = (entries: typeof round) => {
        const now = this.clock.now();
        const writes = entries.map((e) => e.write);
        const tx = () => this.uow.run((em) => this.writeRound(em, writes, now));
        return withDbRetry(tx, this.config.leaseMs, { elapsed: true });
      };
      try {
        const results = await write(round);
        round.forEach((entry, k) => (won[entry.index] = results[k]));
      } catch (err) {
        if (round.length === 1 || isTransientDbError(err)) for (const entry of round) won[entry.index] = err as Error;
        else {
          this.logger.warn(
            `finishing write of ${round.length} attempts failed (${(err as Error).message}); ` +
              'writing them one by one',
          );
          for (const entry of round)
            won[entry.index] = await write([entry]).then(
              (r) => r[0],
              (e: Error) => e,
            );
        }
      }
      rest = later;
    }
    return won;
  }

  /**
   * One transaction: the finishing writes, their attempt rows and the final ones' deliveries commit together (no
   * ended attempt without its row, no final state without its delivery). A won write found already committed
   * ({@link isOwnEarlierWrite}) enqueues again harmlessly: INSERT IGNORE on the delivery's instance id.
   */
  private async writeRound(em: Tx, group: FinishingWrite[], now: number): Promise<boolean[]> {
    const successes = group.filter((e) => e.status === S.SUCCESS);
    const succeeded =
      successes.length === 0
        ? new Set<string>()
        : await this.ledger.succeed(
            em,
            successes.map((e) => ({
              id: e.row.id,
              attempt: e.row.attempt,
              fencingToken: e.token,
              result: e.patch.result,
            })),
            now,
          );
    const won: boolean[] = [];
    for (const e of group) {
      if (e.status === S.CANCELLED) won.push(true);
      else if (e.status === S.SUCCESS) won.push(succeeded.has(e.row.id));
      else {
        const guard = { attempt: e.row.attempt, fencingToken: e.token };
        won.push(
          (await this.transitions.transition(e.row.id, S.RUNNING, e.status, guard, e.patch, e.at, em)) ||
            (await this.isOwnEarlierWrite(em, e)),
        );
      }
    }
    const ended = group
      .filter((_, k) => won[k])
      .map((e) => ({
        instanceId: e.row.id,
        attempt: e.row.attempt,
        nodeId: e.nodeId,
        fencingToken: e.token,
        startedAt: e.startedAt,
        status: e.outcome.status,
        error: e.outcome.status === S.SUCCESS ? null : e.outcome.error,
        handlerEndedAt: e.handlerEndedAt ?? null,
      }));
    if (ended.length > 0) await this.ledger.endAttempts(em, ended, now);
    const finals = group
      .filter((e, k) => won[k] && FINAL_HERE.has(e.status))
      .map((e) => ({ ...e.row, finalStatus: e.status }));
    await this.deliveries.enqueueFinal(em, finals, now);
    return won;
  }

  /**
   * Whether a transition that matched no row finds it as this very write leaves it (an earlier try committed, its
   * answer lost): same status, attempt, token, `updated_at` and error. Taken for lost, it would skip its follow-ups.
   */
  private async isOwnEarlierWrite(em: Tx, e: FinishingWrite): Promise<boolean> {
    const [now] = await this.ledger.findMany([e.row.id], em);
    return (
      !!now &&
      now.status === e.status &&
      now.attempt === (e.patch.attempt ?? e.row.attempt) &&
      now.fencingToken === e.token &&
      now.updatedAt === e.at &&
      (now.error ?? null) === (e.patch.error ?? null)
    );
  }
}
