import { Inject, Injectable, Logger } from '@nestjs/common';
import { CLOCK, type Clock, GroupCommitter, SchedulerError } from '../../common/index.js';
import { APP_CONFIG, type AppConfig } from '../../config/index.js';
import {
  BackoffKind,
  type ClaimedInstance,
  CORRUPT_ROW,
  corruptionOf,
  ExecutionLedgerRepository,
  JobDefinitionRepository,
  JobInstance,
  JobInstanceRepository,
  JobInstanceStatus as S,
  TriggerType,
  isTransientDbError,
  type Tx,
  withDbRetry,
} from '../metadata/index.js';
import { COORDINATION, type CoordinationPort, DELAY_DUE_CHANNEL } from '../coordination/coordination.port.js';
import { Admission, type HandOff } from '../dispatch/index.js';
import { MetricsService } from '../observability/index.js';
import { AppScopes } from './app-scopes.service.js';
import { HandlerRegistry } from './handler-registry.service.js';
import { JobContext, JobFailure } from './job-context.js';
import { backoffDelayMs, boundError, boundResult } from './outcome.util.js';

/** A claimed attempt that is running on this node. */
export interface RunningAttempt {
  instanceId: string;
  fencingToken: number;
  controller: AbortController;
}

type Outcome =
  | { status: S.SUCCESS; result: unknown }
  /** `final`: no retry whatever attempts are left (JobFailure.retryable false; a row whose stored data cannot be read). */
  | { status: S.FAILED | S.TIMEOUT | S.CANCELLED; error: string; result?: unknown; final?: boolean }
  /** Aborted by this node's shutdown: handed back without using up an attempt. */
  | { status: 'HANDED_BACK'; error: string; result?: unknown };

/** What {@link TaskRunner.runMany} tells its caller about each id. */
export interface RunHooks {
  /** The id's handler no longer runs (its worker slot is free); its finishing write may still be under way. */
  handlerDone(id: string): void;
  /** Everything about the id is over (after handlerDone). */
  ended(id: string): void;
}

/** An ended attempt on its way to the finishing write, and what that write should say. */
interface Ended {
  row: JobInstance;
  token: number;
  outcome: Outcome;
  /** The row's new status (CANCELLED: the canceller already moved it; only the attempt closes). */
  status: S;
  /** For a write that is not a plain SUCCESS: the transition's patch. */
  patch: Partial<JobInstance>;
  retry: boolean;
  dueAt: number;
  /** When the patch was made (the transition's `now`). */
  at: number;
}

/** Most attempts one finishing transaction carries (group commit). */
const FINISH_BATCH = 256;
/**
 * How long a claim or a finishing write is retried through transient database errors (lock conflicts,
 * a lost or exhausted connection). Beyond that the lease is the backstop: the row stays RUNNING (or
 * DISPATCHED) and the reconciler takes it back.
 */
const CLAIM_RETRY_MS = 5_000;
/** How long an aborted handler (cancel, timeout, lost lease, shutdown) is given to settle before its attempt ends here. */
const HANDLER_STOP_WAIT_MS = 1_000;
const FINISH_RETRY_MS = 30_000;

/**
 * Runs claimed instances on this node (DESIGN §4, §7), k at a time:
 * 1. claim: one SELECT of the k rows, then in one transaction one UPDATE DISPATCHED→RUNNING of those still
 *    assigned to this node at the attempt and token read (each gets token+1 and the lease) and one INSERT
 *    of their job_attempt rows (ExecutionLedgerRepository);
 * 2. run each handler with a JobContext whose signal aborts on timeout, lost lease or shutdown;
 * 3. finish: each ended attempt joins a group commit — one transaction per group, in which every row's
 *    write stays conditional on its fencing token (SUCCESS of the group in one UPDATE; FAILED, TIMEOUT,
 *    retries and hand-backs one by one) and the group's attempt rows close in one UPDATE.
 * A write that loses means someone else took the row (lease revoked); it is logged, nothing more.
 * Claims and finishing writes are retried through transient database errors (deadlock victim, lost
 * connection); a finishing write that still fails leaves the row RUNNING for the lease to take back.
 */
@Injectable()
export class TaskRunner {
  private readonly logger = new Logger(TaskRunner.name);
  /**
   * The attempts running here, by `<instance id>#<fencing token>`: an instance taken back while its old
   * attempt still ran here may be claimed here again, and each attempt stays watched (lease, cancel) until it ends.
   */
  readonly running = new Map<string, RunningAttempt>();
  /** The started_at of this process's latest claim (epoch ms): each claim takes a later one. */
  private lastClaimAt = 0;
  private readonly finishes = new GroupCommitter<Ended, boolean | Error>((group) => this.writeFinishes(group), FINISH_BATCH);

  constructor(
    private readonly instances: JobInstanceRepository,
    private readonly ledger: ExecutionLedgerRepository,
    private readonly jobs: JobDefinitionRepository,
    private readonly handlers: HandlerRegistry,
    private readonly metrics: MetricsService,
    @Inject(COORDINATION) private readonly coordination: CoordinationPort,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(CLOCK) private readonly clock: Clock,
    private readonly scopes: AppScopes,
    private readonly admission: Admission,
  ) {}

  /** A promoted WAITING instance goes to the leader's delay pump, due now. */
  private readonly promoted: HandOff = {
    handOff: async (row) => {
      await this.coordination.scheduleDelayed(row.id, row.dueAt);
      this.wakePump();
    },
  };

  /** Whether an attempt of instance `instanceId` runs here now. */
  runs(instanceId: string): boolean {
    for (const att of this.running.values()) if (att.instanceId === instanceId) return true;
    return false;
  }

  /** Extends the lease of a running attempt; false when the row is no longer ours (token superseded). */
  renewLease(att: RunningAttempt, until: number): Promise<boolean> {
    return this.instances.renewLease(att.instanceId, att.fencingToken, until, this.clock.now());
  }

  /** Claims and runs instance `id` for node `nodeId` ({@link runMany} of one). Never throws. */
  run(id: string, nodeId: string, shutdown: AbortSignal): Promise<void> {
    return this.runMany([id], nodeId, shutdown, { handlerDone: () => undefined, ended: () => undefined });
  }

  /**
   * Claims the instances `ids` (taken off this node's queue) in one go and runs those it won. For each id,
   * `hooks.handlerDone(id)` is called once its handler no longer runs (at once for an id that was not
   * claimable — gone, not DISPATCHED to this node — or whose claim failed), then `hooks.ended(id)` once its
   * finishing write has ended too; an id listed twice is run once and gets its hooks twice (the second pair at
   * once). Resolves when all have ended. Never throws.
   */
  async runMany(ids: string[], nodeId: string, shutdown: AbortSignal, hooks: RunHooks): Promise<void> {
    // An id queued twice can be taken twice in one claim: its row is claimed and run once, and the extra copy
    // ends at once, so each copy taken still gets its hooks (the caller frees a worker slot and acks per copy).
    const unique = new Set<string>();
    const extra: string[] = [];
    for (const id of ids) {
      if (unique.has(id)) extra.push(id);
      else unique.add(id);
    }
    for (const id of extra) {
      hooks.handlerDone(id);
      hooks.ended(id);
    }
    let claimed: ClaimedInstance[] = [];
    try {
      claimed = await this.claim([...unique], nodeId);
    } catch (err) {
      // Rows stay DISPATCHED; once their ids are acked the reconciler finds them in no queue and pushes them again.
      this.logger.error(`claim of ${ids.length} instance(s) failed: ${(err as Error).message}`);
    }
    const won = new Set(claimed.map((c) => c.row.id));
    for (const id of unique) {
      if (won.has(id)) continue;
      hooks.handlerDone(id);
      hooks.ended(id);
    }
    await Promise.all(claimed.map((c) => {
      let done = false;
      const handlerDone = () => {
        if (!done) hooks.handlerDone(c.row.id);
        done = true;
      };
      return this.runClaimed(c, shutdown, handlerDone)
        .catch((err: Error) => this.logger.error(`instance ${c.row.id}: ${err.message}`))
        .finally(() => {
          handlerDone();
          hooks.ended(c.row.id);
        });
    }));
  }

  /** Step 1: the rows still DISPATCHED to `nodeId`, claimed in one transaction (retried through transient errors). */
  private async claim(ids: string[], nodeId: string): Promise<ClaimedInstance[]> {
    const rows = (await withDbRetry(() => this.ledger.findMany(ids), CLAIM_RETRY_MS)).filter((r) => r.status === S.DISPATCHED && r.nodeId === nodeId);
    if (rows.length === 0) return [];
    // Each claim of this process gets its own started_at: the ledger recognises a write of its own that an earlier
    // try committed (answer lost) by node, token and started_at, and two claims of one id in the same millisecond
    // (the id pushed twice, each copy in its own claim group) both took the winner's write for theirs: the handler
    // ran twice under one attempt (chaos: "attempt 1 made 2 side effects"). Only this process claims for its node.
    const now = Math.max(this.clock.now(), this.lastClaimAt + 1);
    this.lastClaimAt = now;
    return withDbRetry(() => this.instances.together((em) => this.ledger.claim(em, rows, nodeId, now, now + this.config.leaseMs)), CLAIM_RETRY_MS);
  }

  private async runClaimed({ row, fencingToken: token }: ClaimedInstance, shutdown: AbortSignal, handlerDone: () => void): Promise<void> {
    const startedAt = this.clock.now();
    const controller = new AbortController();
    const key = `${row.id}#${token}`;
    this.running.set(key, { instanceId: row.id, fencingToken: token, controller });
    try {
      const outcome = await this.execute(row, token, controller, shutdown);
      handlerDone();
      this.metrics.executionSeconds.observe({ handler: row.handler, outcome: outcome.status }, (this.clock.now() - startedAt) / 1000);
      await this.finish(row, token, outcome);
    } finally {
      this.running.delete(key);
    }
  }
  private async execute(row: JobInstance, token: number, controller: AbortController, shutdown: AbortSignal): Promise<Outcome> {
    const corrupt = corruptionOf(row);
    if (corrupt) {
      // Its params cannot be read (a TEXT cut at 65,535 bytes, say): the handler would run on nothing sensible, and so would every retry.
      this.metrics.rowsQuarantined.inc({ reason: CORRUPT_ROW });
      this.logger.error(`instance ${row.id} failed without running its handler: ${corrupt}`);
      return { status: S.FAILED, error: corrupt, final: true };
    }
    const handler = this.handlers.get(row.handler);
    if (!handler) return { status: S.FAILED, error: `no handler '${row.handler}' on this node` };
    // A privileged handler (shell) runs only while its app holds the scope: a revoked one fails the instance, not retried.
    const refused = await this.scopes.refusal(row).catch((err: Error) => `could not read the app's scopes (${err.message}); not run`);
    if (refused) return { status: S.FAILED, error: refused, final: refused.startsWith('SCOPE_REVOKED') ? true : undefined };
    const timeout = setTimeout(() => controller.abort(new Error('TIMEOUT')), row.timeoutMs);
    const onShutdown = () => controller.abort(new Error('SHUTDOWN'));
    shutdown.addEventListener('abort', onShutdown, { once: true });
    const logger = new Logger(`job:${row.handler}:${row.traceId}`);
    const ctx: JobContext = {
      requestId: row.requestId, instanceId: row.id, appId: row.appId, jobCode: row.jobCode, params: row.params, attempt: row.attempt,
      maxAttempts: row.maxAttempts, fencingToken: token, shardIndex: row.shardIndex, shardTotal: row.shardTotal,
      fireTime: row.fireTime, traceId: row.traceId, signal: controller.signal, logger,
      progress: (pct, note) => logger.log(`progress ${Math.max(0, Math.min(100, pct))}%${note ? ` ${note}` : ''}`),
    };
    let running: Promise<unknown> | undefined;
    try {
      running = handler.execute(ctx);
      const result = await Promise.race([running, abortPromise(controller.signal)]);
      return { status: S.SUCCESS, result };
    } catch (err) {
      // Aborted: give the handler a moment to wind down (an http call's socket closed) before its slot, worker and
      // maxConcurrency slot go to the next instance. One that ignores its signal is not waited for past the bound.
      if (controller.signal.aborted && running) await settledWithin(running, HANDLER_STOP_WAIT_MS);
      const reason = controller.signal.aborted ? String((controller.signal.reason as Error)?.message ?? '') : '';
      if (reason === 'TIMEOUT') return { status: S.TIMEOUT, error: `timed out after ${row.timeoutMs} ms` };
      if (reason === 'SHUTDOWN') return { status: 'HANDED_BACK', error: 'node shut down before the handler finished' };
      if (reason === 'REVOKED') return { status: S.CANCELLED, error: 'cancelled (or taken away) while running' };
      const e = err as Error;
      const field = err instanceof SchedulerError && err.field ? `${err.field} ` : ''; // "ValidationError: params.url is required"
      const failure = err instanceof JobFailure ? err : undefined;
      return { status: S.FAILED, error: `${e.name === 'Error' ? '' : `${e.name}: `}${field}${e.message}`, result: failure?.result, final: failure?.retryable === false };
    } finally {
      clearTimeout(timeout);
      shutdown.removeEventListener('abort', onShutdown);
    }
  }

  /** Step 3 for one attempt: plans its write, waits for its group's commit, then does what follows a won write. */
  private async finish(row: JobInstance, token: number, outcome: Outcome): Promise<void> {
    const ended = this.plan(row, token, outcome, this.clock.now());
    const won = await this.finishes.submit(ended).catch((err: Error) => err);
    if (won instanceof Error) {
      this.logger.error(`instance ${row.id} attempt ${row.attempt}: finishing write failed (${won.message}); the row stays RUNNING until its lease ends`);
      return;
    }
    const now = this.clock.now();
    if (outcome.status === S.CANCELLED || !won) {
      // The row was already moved by the canceller (or the reconciler): only this attempt was closed. A cancelled
      // instance left its maxConcurrency slot and its QUEUE turn for this node to free now that the handler stopped
      // (DESIGN §7); one taken away may hold its slot again for a later attempt, so it is freed only when it is
      // this very attempt (same fencing token) that was cancelled — an older attempt of the instance, ending
      // here after the row was taken back and cancelled on a later attempt, freed that one's slot early. A handler
      // that finished on its own while the cancel landed (its write lost to it) has stopped as well.
      if (outcome.status === S.CANCELLED) this.logger.warn(`instance ${row.id} attempt ${row.attempt}: stopped while running (cancelled, or taken away from this node); its result is not recorded`);
      else this.logger.warn(`instance ${row.id} attempt ${row.attempt}: finishing write rejected (lease lost, token ${token} is stale), or the instance was cancelled`);
      const current = row.jobId ? (await this.ledger.findMany([row.id]))[0] : undefined;
      const ownCancel = current?.status === S.CANCELLED && current.fencingToken === token;
      if (ownCancel) await this.admission.stopGraceEnded(row, token, this.promoted);
      else if (row.jobId && outcome.status === S.CANCELLED) await this.admission.promoteNext(row.jobId, this.promoted);
      return;
    }
    if (ended.retry) {
      if (outcome.status !== 'HANDED_BACK') this.metrics.retries.inc();
      // Through the delay queue (DESIGN §7): the leader's pump routes it at its due time (a hand-back: now).
      await this.coordination.scheduleDelayed(row.id, ended.dueAt).then(() => ended.dueAt <= now && this.wakePump(), () => undefined);
    } else {
      this.metrics.instancesFinished.inc({ status: ended.status });
    }
    // A retry waits out its backoff without a slot; under QUEUE it keeps the turn (nothing to promote).
    await this.admission.free(row, this.promoted, !ended.retry || row.maxConcurrency > 0);
    if (!ended.retry && row.jobId) await this.afterFinal(row.jobId, now);
  }

  /** What the finishing write of `outcome` says: SUCCESS, FAILED/TIMEOUT, a retry (PENDING, attempt+1, after the backoff) or a hand-back. */
  private plan(row: JobInstance, token: number, outcome: Outcome, now: number): Ended {
    if (outcome.status === S.CANCELLED) return { row, token, outcome, status: S.CANCELLED, patch: {}, retry: false, dueAt: now, at: now };
    const result = boundResult(outcome.result);
    const handBack = outcome.status === 'HANDED_BACK';
    // The one retry decision: a failure retries while attempts remain, unless it is final (JobFailure.retryable false, a corrupt row).
    const final = outcome.status !== S.SUCCESS && outcome.status !== 'HANDED_BACK' && outcome.final === true;
    const retry = handBack || (outcome.status !== S.SUCCESS && !final && row.attempt < row.maxAttempts);
    const dueAt = handBack ? now : now + backoffDelayMs(row.retryBackoffMs, row.retryBackoffKind as BackoffKind, row.attempt);
    const status = retry ? S.PENDING : (outcome.status as S.SUCCESS | S.FAILED | S.TIMEOUT);
    const error = outcome.status === S.SUCCESS ? null : boundError(outcome.error);
    const patch: Partial<JobInstance> = handBack
      ? { attempt: row.attempt + 1, maxAttempts: row.maxAttempts + 1, nodeId: null, leaseUntil: null, dispatchedAt: null, dueAt, error }
      : retry
        ? { attempt: row.attempt + 1, nodeId: null, leaseUntil: null, dispatchedAt: null, dueAt, error, result }
        : { result, error, leaseUntil: null, finishedAt: now };
    return { row, token, outcome, status, patch, retry, dueAt, at: now };
  }

  /**
   * The group commit of finishing writes. Each transaction holds one attempt per instance (the rare second
   * attempt of the same instance goes in the next one) and is retried whole through transient errors. A
   * transaction of several attempts that still fails is written again one attempt per transaction, so an
   * attempt whose own write cannot succeed fails alone instead of leaving the whole group RUNNING (not
   * after a transient error that outlasted the retries: the database is away for all of them alike).
   * @returns per entry, whether its write won (CANCELLED entries: always, only their attempt row closes),
   *   or the error its write failed with.
   */
  private async writeFinishes(group: Ended[]): Promise<Array<boolean | Error>> {
    const won = new Array<boolean | Error>(group.length).fill(false);
    let rest = group.map((ended, index) => ({ ended, index }));
    while (rest.length > 0) {
      const seen = new Set<string>();
      const round: typeof rest = [];
      const later: typeof rest = [];
      for (const entry of rest) {
        (seen.has(entry.ended.row.id) ? later : round).push(entry);
        seen.add(entry.ended.row.id);
      }
      const write = (entries: typeof round) => {
        const now = this.clock.now();
        return withDbRetry(() => this.instances.together((em) => this.writeRound(em, entries.map((e) => e.ended), now)), FINISH_RETRY_MS);
      };
      try {
        const results = await write(round);
        round.forEach((entry, k) => (won[entry.index] = results[k]));
      } catch (err) {
        // Still transient after the retries (database away): writing one by one would only wait longer.
        if (round.length === 1 || isTransientDbError(err)) for (const entry of round) won[entry.index] = err as Error;
        else {
          this.logger.warn(`finishing write of ${round.length} attempts failed (${(err as Error).message}); writing them one by one`);
          for (const entry of round) won[entry.index] = await write([entry]).then((r) => r[0], (e: Error) => e);
        }
      }
      rest = later;
    }
    return won;
  }

  /**
   * One finishing transaction (distinct instances): the plain SUCCESSes in one conditional UPDATE, the
   * other outcomes one conditional transition each, then one UPDATE closing the attempt rows of the
   * writes that won. The finishing write and its attempt row commit together: a node killed between two
   * separate writes would leave the attempt RUNNING for ever, an attempt nobody could trace.
   */
  private async writeRound(em: Tx | undefined, group: Ended[], now: number): Promise<boolean[]> {
    const successes = group.filter((e) => e.status === S.SUCCESS);
    const succeeded = successes.length === 0 ? new Set<string>()
      : await this.ledger.succeed(em, successes.map((e) => ({ id: e.row.id, attempt: e.row.attempt, fencingToken: e.token, result: e.patch.result })), now);
    const won: boolean[] = [];
    for (const e of group) {
      if (e.status === S.CANCELLED) won.push(true);
      else if (e.status === S.SUCCESS) won.push(succeeded.has(e.row.id));
      else won.push(await this.instances.transition(e.row.id, S.RUNNING, e.status, { attempt: e.row.attempt, fencingToken: e.token }, e.patch, e.at, em)
        || await this.isOwnEarlierWrite(em, e));
    }
    const ended = group.filter((_, k) => won[k]).map((e) => ({
      instanceId: e.row.id, attempt: e.row.attempt, status: e.outcome.status, error: e.outcome.status === S.SUCCESS ? null : e.outcome.error,
    }));
    if (ended.length > 0) await this.ledger.endAttempts(em, ended, now);
    return won;
  }

  /**
   * Whether a transition that matched no row finds the row exactly as this very write leaves it: the
   * same write, committed by an earlier try of this group whose commit the connection lost before
   * answering (withDbRetry then runs the group again). Compared: status, attempt, token, `updated_at`
   * (this write's own time) and error. Another writer (the reconciler, a canceller) leaves a different
   * error or time. Without this, a retry or a final FAILED committed that way was treated as lost: no
   * delay-queue entry, no metrics, and a FIXED_DELAY job's next fire never set.
   */
  private async isOwnEarlierWrite(em: Tx | undefined, e: Ended): Promise<boolean> {
    const [now] = await this.ledger.findMany([e.row.id], em);
    return !!now && now.status === e.status && now.attempt === (e.patch.attempt ?? e.row.attempt) && now.fencingToken === e.token
      && now.updatedAt === e.at && (now.error ?? null) === (e.patch.error ?? null);
  }

  /**
   * Tells the leader an id in the delay queue is due now, so it pumps at once rather than at its next 200-ms
   * pump (a limit-1 job ran at most ~5 instances a second). A hint: a lost one costs one pump interval.
   */
  wakePump(): void {
    void this.coordination.publish(DELAY_DUE_CHANNEL, '').catch(() => undefined);
  }

  /** Ids of running attempts whose row was cancelled or taken away since they started. */
  async revokedAttempts(): Promise<RunningAttempt[]> {
    const running = [...this.running.values()];
    const gone = await this.instances.notRunningAnyMore(running.map((a) => ({ id: a.instanceId, fencingToken: a.fencingToken, attempt: a })));
    return gone.map((g) => g.attempt);
  }

  /** FIXED_DELAY: the next fire is counted from this finish (DESIGN §5). */
  private async afterFinal(jobId: string, now: number): Promise<void> {
    const def = await this.jobs.findById(this.config.namespace, jobId);
    if (def?.enabled && def.triggerType === TriggerType.FIXED_DELAY && def.nextFireTime === null) {
      await this.jobs.setNextFire(def.id, now + Number(def.triggerExpr), now);
    }
  }
}

/** Waits until `p` settles, or `ms` at most. Never throws. */
async function settledWithin(p: Promise<unknown>, ms: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([p.then(() => undefined, () => undefined), new Promise<void>((r) => (timer = setTimeout(r, ms)))]);
  clearTimeout(timer);
}

function abortPromise(signal: AbortSignal): Promise<never> {
  return new Promise((_, reject) => {
    if (signal.aborted) reject(signal.reason);
    signal.addEventListener('abort', () => reject(signal.reason), { once: true });
  });
}
