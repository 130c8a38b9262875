import { Inject, Injectable, Logger } from '@nestjs/common';
import {
  attemptTrace,
  CLOCK,
  type Clock,
  ConflictError,
  formatTraceparent,
  NotFoundError,
  runLimitOf,
  ValidationError,
} from '../../common/index.js';
import { APP_CONFIG, type AppConfig } from '../../config/index.js';
import {
  corruptionOf,
  ExecutionInstances,
  ExecutionLedger,
  type HandlerLogLevel,
  isTransientDbError,
  type JobInstance,
  JobInstanceStatus as S,
  withDbRetry,
} from '../metadata/index.js';
import {
  type Checkpoint,
  CheckpointRejected,
  type FinishBody,
  type FinishedItem,
  JobFailure,
  type LostLease,
  type WorkerAttempt,
} from '../handler/index.js';
import { AppHold } from './app-hold.js';
import { AbortReason, abortedOutcome, failedOutcome, limitReason } from './abort-reason.js';
import { CheckpointWriter, decodeCheckpoint } from './attempt-checkpoints.js';
import { AttemptFinish, type FinishResult } from './attempt-finish.js';
import { HandlerLogWriter } from './handler-log/handler-log-writer.js';
import { LateStarts } from './late-starts.js';
import type { AttemptOutcome } from './outcome-policy.js';
import { ProgressWriter } from './progress-writer.js';

/** How long a claim is retried through transient database errors (as the task runner's). */
const CLAIM_RETRY_MS = 5_000;

/** An attempt a worker names: the instance and the token its claim issued. */
export interface AttemptRef {
  instanceId: string;
  fencingToken: number;
}

/** The node and app an app worker acts as; every call checks the rows it names against both. */
export interface WorkerSeat {
  appId: string;
  nodeId: string;
}

/**
 * The executor's attempt lifecycle for app workers (docs/workers.md), which run handlers elsewhere and call the api:
 * the same claim as the task runner's (ExecutionLedger), the lease renewal and revocation of the lease keeper, the
 * fenced checkpoint, progress and log writers, and {@link AttemptFinish} for the end (decideOutcome, finishing
 * write, admission, the attempt-ended hook). Each call names its worker's {@link WorkerSeat}: a row of another app
 * is not found, so a worker never reads or writes another app's instances.
 */
@Injectable()
export class RemoteAttempts {
  private readonly logger = new Logger(RemoteAttempts.name);
  private lastClaimAt = 0;

  constructor(
    @Inject(ExecutionLedger) private readonly ledger: Pick<ExecutionLedger, 'findMany' | 'claim'>,
    @Inject(ExecutionInstances) private readonly rows: Pick<ExecutionInstances, 'renewLease'>,
    @Inject(CheckpointWriter) private readonly checkpoints: Pick<CheckpointWriter, 'open'>,
    @Inject(ProgressWriter) private readonly progress: Pick<ProgressWriter, 'report' | 'end'>,
    @Inject(HandlerLogWriter) private readonly logs: Pick<HandlerLogWriter, 'keep' | 'ended'>,
    @Inject(AttemptFinish) private readonly finishing: Pick<AttemptFinish, 'finish'>,
    @Inject(APP_CONFIG) private readonly config: Pick<AppConfig, 'leaseMs' | 'longTasks'>,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(AppHold) private readonly hold: Pick<AppHold, 'startable'>,
    @Inject(LateStarts) private readonly late: Pick<LateStarts, 'claimed'>,
  ) {}

  /**
   * DISPATCHED→RUNNING of those of `ids` still dispatched to the seat's node, as the task runner claims (one
   * statement, a new fencing token and lease each). A row whose params cannot be read fails without being handed
   * out, as an executor fails it without running its handler.
   */
  async claim(seat: WorkerSeat, ids: string[]): Promise<WorkerAttempt[]> {
    if (ids.length === 0) return [];
    const found = await withDbRetry(() => this.ledger.findMany(ids), CLAIM_RETRY_MS, { elapsed: true });
    const mine = found.filter((r) => r.status === S.DISPATCHED && r.nodeId === seat.nodeId && r.appId === seat.appId);
    const rows = await this.hold.startable(mine, seat.nodeId); // a poll that outlived its client's disable gets none
    if (rows.length === 0) return [];
    const now = Math.max(this.clock.now(), this.lastClaimAt + 1);
    this.lastClaimAt = now;
    const until = now + this.config.leaseMs;
    const write = () => this.ledger.claim(undefined, rows, seat.nodeId, now, until);
    const claimed = await withDbRetry(write, CLAIM_RETRY_MS, { elapsed: true }).catch((err: Error) => {
      if (isTransientDbError(err)) void this.handBackUnheard(seat, rows, now);
      throw err;
    });
    this.late.claimed(claimed);
    const out: WorkerAttempt[] = [];
    for (const c of claimed) {
      const corrupt = corruptionOf(c.row);
      if (corrupt) {
        const outcome: AttemptOutcome = { status: S.FAILED, error: corrupt, final: true };
        const run = { row: c.row, token: c.fencingToken, nodeId: seat.nodeId, startedAt: c.startedAt };
        await this.finishing.finish({ ...run, outcome, handler: null, endedInTime: null });
        continue;
      }
      const checkpoint = decodeCheckpoint(c.checkpoint, c.row.id, this.logger);
      out.push(toAttempt(c.row, c.fencingToken, until, checkpoint, this.config.longTasks.maxRunTimeMs));
    }
    return out;
  }

  /**
   * Hands back, once the database answers, the rows a failed claim committed unseen (its node, `started_at`, token):
   * its worker never heard of them (docs/workers.md "Routes").
   */
  private async handBackUnheard(seat: WorkerSeat, rows: JobInstance[], now: number): Promise<void> {
    const token = new Map(rows.map((r) => [r.id, r.fencingToken + 1]));
    const read = () => this.ledger.findMany([...token.keys()]);
    try {
      const found = await withDbRetry(read, this.config.leaseMs / 2, { elapsed: true });
      const mine = (r: JobInstance) => r.status === S.RUNNING && r.nodeId === seat.nodeId && r.startedAt === now;
      const taken = found.filter((r) => mine(r) && r.fencingToken === token.get(r.id));
      const outcome = { status: 'HANDED_BACK', error: 'CLAIM_LOST: its answer never reached the worker' } as const;
      for (const row of taken) {
        const run = { row, token: row.fencingToken, nodeId: seat.nodeId, startedAt: now, outcome };
        await this.finishing.finish({ ...run, handler: null, endedInTime: null });
      }
      if (taken.length > 0) this.logger.warn(`${taken.length} instance(s) claimed unheard by a worker handed back`);
    } catch (err) {
      this.logger.warn(`a claim's lost answer: its rows wait for their lease (${(err as Error).message})`);
    }
  }

  /**
   * Renews each attempt's lease to now + LEASE_MS while the seat's node holds it under its token; the others are
   * lost: REVOKED when cancelled at that token, LEASE_LOST otherwise (taken back, a newer token, not the app's, or
   * still renewed a lease past its run limit: then the api records its TIMEOUT, {@link endOverdue}).
   */
  async renew(
    seat: WorkerSeat,
    attempts: AttemptRef[],
  ): Promise<{ leaseUntil: number; lost: Array<AttemptRef & { reason: LostLease['reason'] }> }> {
    const until = this.clock.now() + this.config.leaseMs;
    const byId = new Map((await this.ledger.findMany([...new Set(attempts.map((a) => a.instanceId))])).map(byRowId));
    const lost: Array<AttemptRef & { reason: LostLease['reason'] }> = [];
    const unique = new Map(attempts.map((a) => [`${a.instanceId}#${a.fencingToken}`, a])); // one UPDATE per attempt
    for (const a of unique.values()) {
      const row = byId.get(a.instanceId);
      if (!row || row.appId !== seat.appId || row.fencingToken !== a.fencingToken) {
        lost.push({ ...a, reason: 'LEASE_LOST' });
      } else if (row.status === S.CANCELLED) {
        lost.push({ ...a, reason: 'REVOKED' });
      } else if (row.status !== S.RUNNING || row.nodeId !== seat.nodeId) {
        lost.push({ ...a, reason: 'LEASE_LOST' });
      } else if (await this.endOverdue(seat, row)) {
        lost.push({ ...a, reason: 'LEASE_LOST' });
      } else if (!(await this.rows.renewLease(a.instanceId, a.fencingToken, until, this.clock.now()))) {
        lost.push({ ...a, reason: 'LEASE_LOST' });
      }
    }
    return { leaseUntil: until, lost };
  }

  /**
   * Records the TIMEOUT of a RUNNING attempt one lease past its run limit (runLimitOf) that its worker still renews:
   * the worker's own timer should have ended it, so it is hung or ignores timeoutMs. @returns whether it was overdue.
   */
  private async endOverdue(seat: WorkerSeat, row: JobInstance): Promise<boolean> {
    const limit = runLimitOf(row, this.config.longTasks.maxRunTimeMs);
    const startedAt = row.startedAt ?? this.clock.now();
    if (this.clock.now() < startedAt + limit.ms + this.config.leaseMs) return false;
    const outcome = abortedOutcome(limitReason(limit), limit, undefined, row.heartbeatTimeoutMs);
    await this.progress.end(progressKey({ instanceId: row.id, fencingToken: row.fencingToken }));
    await this.logs.ended(row.id, row.attempt);
    const run = { row, token: row.fencingToken, nodeId: seat.nodeId, startedAt };
    await this.finishing.finish({ ...run, outcome, handler: null, endedInTime: null });
    return true;
  }

  /**
   * Stores a checkpoint (and renews the lease) as an executor's handler does: at most CHECKPOINT_MAX_BYTES of JSON,
   * only while the row is RUNNING under the token. @throws NotFoundError, ValidationError(state), ConflictError.
   */
  async checkpoint(seat: WorkerSeat, ref: AttemptRef, state: unknown): Promise<void> {
    const row = await this.owned(seat, ref);
    const attempt = { id: row.id, attempt: row.attempt, fencingToken: ref.fencingToken };
    try {
      await this.checkpoints.open(attempt, () => undefined).write(state);
    } catch (err) {
      if (err instanceof RangeError) throw new ValidationError('state', err.message);
      if (err instanceof CheckpointRejected) throw staleToken(ref);
      throw err;
    }
  }

  /** A progress report, through the executors' writer (coalesced); one not of the attempt running here is dropped. */
  async reportProgress(seat: WorkerSeat, ref: AttemptRef, fraction: number, note?: string): Promise<void> {
    // Only the running attempt's report opens a coalescing window: a stale or made-up token would leave one behind.
    if (!runsHere(await this.owned(seat, ref), seat, ref)) return;
    this.progress.report(progressKey(ref), ref.instanceId, ref.fencingToken, fraction, note);
  }

  /** Handler log lines, kept with the bounds of `ctx.log` while the attempt runs here; a stale one is dropped. */
  async log(
    seat: WorkerSeat,
    ref: AttemptRef,
    lines: Array<{ level: HandlerLogLevel; message: string; at: number }>,
  ): Promise<void> {
    const row = await this.owned(seat, ref);
    if (!runsHere(row, seat, ref)) return;
    const now = this.clock.now();
    const from = row.startedAt ?? now;
    this.logs.keep(
      row,
      lines.map((l) => ({ ...l, at: Math.min(now, Math.max(from, l.at)) })),
    );
  }

  /**
   * The attempt's end, recorded by {@link AttemptFinish} as an executor's (the outcome mapped as abortedOutcome and
   * failedOutcome map a handler's). A CANCELLED finish is taken only for an attempt cancelled at its token.
   * @throws NotFoundError, ConflictError when the write lost (stale token: nothing changed but what an executor's
   * lost write changes).
   */
  async finish(seat: WorkerSeat, instanceId: string, end: FinishBody): Promise<FinishResult> {
    const row = await this.owned(seat, { instanceId, fencingToken: end.fencingToken });
    return this.finishRow(seat, row, end);
  }

  /**
   * Several finishes of the seat's node (docs/workers.md "finishes"): the rows read in one statement, then each
   * finished as {@link finish} does, at once (the finishing writes share group commits). Each item is answered
   * with the status the single route would have given it: 200 with the row's status, 404 or 409 with why.
   * Rejects only on what is not the item's fault (the database), as the single route answers 500.
   */
  async finishMany(seat: WorkerSeat, items: Array<FinishBody & { instanceId: string }>): Promise<FinishedItem[]> {
    const rows = new Map((await this.ledger.findMany([...new Set(items.map((i) => i.instanceId))])).map(byRowId));
    return Promise.all(
      items.map(async ({ instanceId, ...end }): Promise<FinishedItem> => {
        const ref = { instanceId, fencingToken: end.fencingToken };
        try {
          const { status, final } = await this.finishRow(seat, ownedRow(rows.get(instanceId), seat, ref), end);
          return { ...ref, code: 200, status, final };
        } catch (err) {
          if (err instanceof NotFoundError) return { ...ref, code: 404, detail: err.message };
          if (err instanceof ConflictError) return { ...ref, code: 409, detail: err.message };
          throw err;
        }
      }),
    );
  }

  private async finishRow(seat: WorkerSeat, row: JobInstance, end: FinishBody): Promise<FinishResult> {
    const ref = { instanceId: row.id, fencingToken: end.fencingToken };
    const cancelledHere = row.status === S.CANCELLED && row.fencingToken === end.fencingToken;
    if (end.outcome === 'CANCELLED' && !cancelledHere) throw staleToken(ref);
    if (row.nodeId !== seat.nodeId) throw staleToken(ref);
    await this.progress.end(progressKey(ref));
    await this.logs.ended(row.id, row.attempt);
    const now = this.clock.now();
    const startedAt = row.startedAt ?? now;
    const at = end.handlerEndedAt === undefined ? null : Math.min(now, Math.max(startedAt, end.handlerEndedAt));
    const outcome = remoteOutcome(row, end, this.config.longTasks.maxRunTimeMs);
    const endedInTime = at === null ? null : { at, status: settledAs(outcome), error: null };
    const result = await this.finishing.finish({
      row,
      token: end.fencingToken,
      nodeId: seat.nodeId,
      startedAt,
      outcome,
      handler: null,
      endedInTime,
    });
    if (!result.won) throw staleToken(ref);
    return result;
  }

  /** The row `ref` names if it is the seat's app's; else NotFoundError (another app's rows do not exist for it). */
  private async owned(seat: WorkerSeat, ref: AttemptRef): Promise<JobInstance> {
    const [row] = await this.ledger.findMany([ref.instanceId]);
    return ownedRow(row, seat, ref);
  }
}

/** `row` when it is the seat's app's; else NotFoundError (another app's rows do not exist for it). */
function ownedRow(row: JobInstance | undefined, seat: WorkerSeat, ref: AttemptRef): JobInstance {
  if (!row || row.appId !== seat.appId) throw new NotFoundError('instance', ref.instanceId);
  // A sibling node's live attempt is not this node's to touch.
  if (row.status === S.RUNNING && row.fencingToken === ref.fencingToken && row.nodeId !== seat.nodeId)
    throw new NotFoundError('instance', ref.instanceId);
  return row;
}

/**
 * The attempt number past which a worker's SHUTDOWN no longer hands back for free (docs/workers.md "Finish"): a
 * hand-back costs no attempt (maxAttempts + 1), so an app could otherwise claim and hand back one instance for ever.
 */
export const MAX_HAND_BACK_ATTEMPT = 40;

/**
 * A worker's outcome as the executor's {@link AttemptOutcome}, through the same mappings a handler's end takes; a
 * SHUTDOWN of an instance already at attempt `handBackCap` counts as a failed attempt (the retry budget applies).
 * A TIMEOUT is the row's run limit under `maxRunTimeMs` (MAX_RUN_TIME_MS), the `timeoutMs` its claim handed out.
 */
export function remoteOutcome(
  row: Pick<JobInstance, 'timeoutMs' | 'timeoutMode' | 'heartbeatTimeoutMs' | 'attempt'>,
  end: FinishBody,
  maxRunTimeMs: number,
  handBackCap = MAX_HAND_BACK_ATTEMPT,
) {
  const limit = runLimitOf(row, maxRunTimeMs);
  const aborted = (reason: AbortReason) => abortedOutcome(reason, limit, undefined, row.heartbeatTimeoutMs);
  switch (end.outcome) {
    case 'SUCCESS':
      return { status: S.SUCCESS, result: end.result ?? null } as AttemptOutcome;
    case 'FAILED': {
      const failure = new JobFailure(end.error ?? 'failed', end.result, { retryable: end.retryable !== false });
      failure.name = 'Error'; // the worker's message as it is, no "JobFailure:" prefix
      return failedOutcome(failure);
    }
    case 'TIMEOUT':
      return aborted(limitReason(limit));
    case 'HEARTBEAT_TIMEOUT':
      return aborted(AbortReason.HEARTBEAT_TIMEOUT);
    case 'SHUTDOWN':
      if (row.attempt < handBackCap) return aborted(AbortReason.SHUTDOWN);
      return failedOutcome(new Error(`SHUTDOWN: handed back at attempt ${row.attempt}, past ${handBackCap}: counted`));
    case 'CANCELLED':
      return aborted(AbortReason.REVOKED);
  }
}

/** The attempt a worker runs; its `timeoutMs` is the run limit (runLimitOf), so a worker times out as an executor. */
function toAttempt(
  row: JobInstance,
  token: number,
  until: number,
  checkpoint: Checkpoint | null,
  maxRunTimeMs: number,
): WorkerAttempt {
  return {
    instanceId: row.id,
    requestId: row.requestId,
    appId: row.appId,
    jobCode: row.jobCode ?? null,
    handler: row.handler,
    params: row.params ?? null,
    attempt: row.attempt,
    maxAttempts: row.maxAttempts,
    fencingToken: token,
    leaseUntil: until,
    timeoutMs: runLimitOf(row, maxRunTimeMs).ms,
    timeoutMode: row.timeoutMode,
    heartbeatTimeoutMs: row.heartbeatTimeoutMs,
    shardIndex: row.shardIndex,
    shardTotal: row.shardTotal,
    fireTime: row.fireTime,
    traceId: row.traceId,
    traceparent: formatTraceparent(attemptTrace(row, token)),
    lastCheckpoint: checkpoint,
  };
}

function runsHere(row: JobInstance, seat: WorkerSeat, ref: AttemptRef): boolean {
  return row.status === S.RUNNING && row.fencingToken === ref.fencingToken && row.nodeId === seat.nodeId;
}

function settledAs(outcome: AttemptOutcome): 'SUCCESS' | 'FAILED' {
  return outcome.status === S.SUCCESS ? 'SUCCESS' : 'FAILED';
}

function progressKey(ref: AttemptRef): string {
  return `${ref.instanceId}#${ref.fencingToken}`;
}

function byRowId(row: JobInstance): [string, JobInstance] {
  return [row.id, row];
}

function staleToken(ref: AttemptRef): ConflictError {
  return new ConflictError(
    `fencing token ${ref.fencingToken} of instance ${ref.instanceId} is stale: the row is no longer this attempt's ` +
      '(taken back, cancelled, or a newer attempt holds it); nothing was written',
    'fencingToken',
  );
}
