import { Inject, Injectable, Logger } from '@nestjs/common';
import { CLOCK, type Clock } from '../../common/index.js';
import { APP_CONFIG, type AppConfig } from '../../config/index.js';
import {
  CallbackDeliveryRepository,
  type CheckpointWrite,
  type ClaimedInstance,
  ExecutionInstances,
  ExecutionLedger,
  InstanceTransitions,
  JobInstance,
  JobAttemptRepository,
  JobInstanceStatus as S,
  withDbRetry,
  UnitOfWork,
} from '../metadata/index.js';
import { DelayFeed } from '../coordination/index.js';
import {
  type ExecutionOutcomeLabel,
  type FinishedStatusLabel,
  type LabelsMatch,
  MetricsService,
} from '../observability/index.js';
import { AppScopes } from './app-scopes.service.js';
import { ATTEMPT_ADMISSION, type AttemptAdmission, type HandOff } from './attempt-admission.hook.js';
import { ATTEMPT_ENDED_HOOK, type AttemptEndedHook } from './attempt-ended.hook.js';
import { AttemptExecution, type HandlerRun } from './attempt-execution.js';
import { FinishWriter } from './finish-writer.js';
import { HandlerRegistry } from './handler-registry.service.js';
import { HandlerLogWriter } from './handler-log/handler-log-writer.js';
import { type AttemptOutcome, decideOutcome } from './outcome-policy.js';
import { ProgressWriter } from './progress-writer.js';

type FinalStatus = Exclude<`${S}`, 'PENDING' | 'WAITING' | 'DISPATCHED' | 'RUNNING'>;
const _statusLabels: LabelsMatch<FinalStatus, FinishedStatusLabel> = true;
const _outcomeLabels: LabelsMatch<`${AttemptOutcome['status']}`, ExecutionOutcomeLabel> = true;

export interface RunningAttempt {
  instanceId: string;
  /** The handler's name (shutdown says what it waits for). */
  handler: string;
  fencingToken: number;
  controller: AbortController;
}

/**
 * Per id: `handlerDone` once its handler no longer runs (worker slot free), `ended` once its attempt is recorded.
 * A handler that ignores its abort may return after `ended`: its slot stays taken until then (docs/long-tasks.md).
 */
export interface RunHooks {
  handlerDone(id: string): void;
  ended(id: string): void;
}

/** How long a claim is retried through transient database errors; beyond, the reconciler pushes the rows again. */
const CLAIM_RETRY_MS = 5_000;

/**
 * Runs claimed instances on this node (docs/execution.md): claims k in one transaction, runs each
 * ({@link AttemptExecution}), writes each outcome ({@link decideOutcome}) through the group commit
 * ({@link FinishWriter}). A write that loses means someone else took the row (cancel, lease revoked): logged.
 */
@Injectable()
export class TaskRunner {
  private readonly logger = new Logger(TaskRunner.name);
  /** By `<instance id>#<token>`: an instance taken back here may run here again while its old attempt ends. */
  readonly running = new Map<string, RunningAttempt>();
  private lastClaimAt = 0;
  private readonly execution: AttemptExecution;
  private readonly finishes: FinishWriter;

  constructor(
    private readonly instances: ExecutionInstances,
    transitions: InstanceTransitions,
    private readonly ledger: ExecutionLedger,
    handlers: HandlerRegistry,
    private readonly metrics: MetricsService,
    private readonly delays: DelayFeed,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(CLOCK) private readonly clock: Clock,
    scopes: AppScopes,
    @Inject(ATTEMPT_ENDED_HOOK) private readonly attemptEnded: AttemptEndedHook,
    @Inject(ATTEMPT_ADMISSION) private readonly admission: AttemptAdmission,
    private readonly uow: UnitOfWork,
    deliveries: CallbackDeliveryRepository,
    private readonly attempts: JobAttemptRepository,
    logs?: HandlerLogWriter,
  ) {
    const checkpoints = {
      store: (w: CheckpointWrite) => instances.writeCheckpoint(w),
      maxBytes: config.longTasks.checkpointMaxBytes,
      leaseMs: config.leaseMs,
    };
    const interval = config.longTasks.progressWriteIntervalMs;
    const progress = new ProgressWriter(instances, metrics, clock, this.logger, interval);
    const execution = [handlers, scopes, metrics, clock, this.logger, checkpoints, progress, logs] as const;
    this.execution = new AttemptExecution(...execution);
    this.finishes = new FinishWriter(transitions, ledger, clock, this.logger, uow, deliveries);
  }

  /** Whether an attempt of instance `instanceId` runs here now. */
  runs(instanceId: string): boolean {
    for (const att of this.running.values()) if (att.instanceId === instanceId) return true;
    return false;
  }

  /** Claims and runs instance `id` for node `nodeId` ({@link runMany} of one). Never throws. */
  run(id: string, nodeId: string, shutdown: AbortSignal): Promise<void> {
    return this.runMany([id], nodeId, shutdown, { handlerDone: () => undefined, ended: () => undefined });
  }

  /** Claims `ids` at once, runs those it won (others: hooks at once; a duplicate: hooks twice). Never throws. */
  async runMany(ids: string[], nodeId: string, shutdown: AbortSignal, hooks: RunHooks): Promise<void> {
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
    await Promise.all(
      claimed.map((c) => {
        let done = false;
        const handlerDone = () => {
          if (!done) hooks.handlerDone(c.row.id);
          done = true;
        };
        return this.runClaimed(c, nodeId, shutdown, handlerDone)
          .catch((err: Error) => {
            this.logger.error(`instance ${c.row.id}: ${err.message}`);
            handlerDone(); // runClaimed failed before it could watch the handler
          })
          .finally(() => hooks.ended(c.row.id));
      }),
    );
  }

  /** Extends the lease of a running attempt; false when the row is no longer ours (token superseded). */
  renewLease(att: RunningAttempt, until: number): Promise<boolean> {
    return this.instances.renewLease(att.instanceId, att.fencingToken, until, this.clock.now());
  }

  /** The running attempts whose row was cancelled or taken away since they started. */
  async revokedAttempts(): Promise<RunningAttempt[]> {
    const running = [...this.running.values()];
    const gone = await this.instances.notRunningAnyMore(
      running.map((a) => ({ id: a.instanceId, fencingToken: a.fencingToken, attempt: a })),
    );
    return gone.map((g) => g.attempt);
  }

  private async claim(ids: string[], nodeId: string): Promise<ClaimedInstance[]> {
    const rows = (await withDbRetry(() => this.ledger.findMany(ids), CLAIM_RETRY_MS)).filter(
      (r) => r.status === S.DISPATCHED && r.nodeId === nodeId,
    );
    if (rows.length === 0) return [];
    // Each claim its own started_at: the ledger knows its own write (answer lost) by node, token and started_at,
    // and two claims in one millisecond would both take the winner's write for theirs (one attempt run twice).
    const now = Math.max(this.clock.now(), this.lastClaimAt + 1);
    this.lastClaimAt = now;
    const until = now + this.config.leaseMs;
    return withDbRetry(() => this.ledger.claim(undefined, rows, nodeId, now, until), CLAIM_RETRY_MS);
  }

  private async runClaimed(
    claimed: ClaimedInstance,
    nodeId: string,
    shutdown: AbortSignal,
    handlerDone: () => void,
  ): Promise<void> {
    const { row, fencingToken: token } = claimed;
    const startedAt = this.clock.now();
    const controller = new AbortController();
    const key = `${row.id}#${token}`;
    this.running.set(key, { instanceId: row.id, handler: row.handler, fencingToken: token, controller });
    try {
      const { outcome, handler } = await this.execution.run(row, token, controller, shutdown, claimed.checkpoint);
      const endedInTime = handler?.end ?? null;
      // The worker slot is the handler's until it really returns (a handler that ignores its abort keeps it).
      if (!handler || endedInTime) handlerDone();
      else void handler.settled.then(handlerDone);
      const seconds = (this.clock.now() - startedAt) / 1000;
      this.metrics.executionSeconds.observe({ handler: row.handler, outcome: outcome.status }, seconds);
      const attempt = { token, nodeId, startedAt: claimed.startedAt };
      const won = await this.finish(row, attempt, outcome, endedInTime?.at ?? null);
      if (handler && !(endedInTime && won)) this.recordHandlerEnd(row, token, handler, endedInTime === null);
    } finally {
      this.running.delete(key);
    }
  }

  /**
   * The handler's real end on its attempt row when the finishing write did not carry it: a handler that returned
   * after its outcome was decided (`late`) gets its late outcome, and later attempts of the instance that started
   * meanwhile are marked as overlapping. Best effort: a failed write is logged.
   */
  private recordHandlerEnd(row: JobInstance, token: number, handler: HandlerRun, late: boolean): void {
    void handler.settled
      .then((end) =>
        this.attempts.recordHandlerEnd({
          instanceId: row.id,
          attempt: row.attempt,
          fencingToken: token,
          endedAt: end.at,
          late: late ? { status: end.status, error: end.error } : null,
        }),
      )
      .catch((err: Error) => this.logger.warn(`instance ${row.id}: handler end not recorded: ${err.message}`));
  }

  /** The finishing write and what follows it; true when it won (its attempt row closed, `handlerEndedAt` on it). */
  private async finish(
    row: JobInstance,
    attempt: { token: number; nodeId: string; startedAt: number },
    outcome: AttemptOutcome,
    handlerEndedAt: number | null,
  ): Promise<boolean> {
    const { token } = attempt;
    const at = this.clock.now();
    const decision = decideOutcome(row, { kind: 'ran', outcome }, at);
    const { status, patch } = decision;
    const won = await this.finishes.submit({ row, ...attempt, outcome, status, patch, at, handlerEndedAt });
    if (won instanceof Error) {
      this.logger.error(
        `instance ${row.id} attempt ${row.attempt}: finishing write failed (${won.message}); ` +
          'the row stays RUNNING until its lease ends',
      );
      return false;
    }
    const now = this.clock.now();
    const cancelled = outcome.status === S.CANCELLED;
    if (cancelled || !won) {
      const what = cancelled
        ? 'stopped while running (cancelled, or taken away from this node); its result is not recorded'
        : `finishing write rejected (lease lost, token ${token} is stale), or the instance was cancelled`;
      this.logger.warn(`instance ${row.id} attempt ${row.attempt}: ${what}`);
      await this.admission.ended(
        row,
        { kind: cancelled ? 'stopped' : 'finishLost', fencingToken: token },
        this.promoted,
      );
      return won;
    }
    const retry = decision.verdict === 'RETRY' || decision.verdict === 'HAND_BACK';
    if (retry) {
      if (decision.verdict === 'RETRY') this.metrics.retries.inc();
      await this.delays.schedule(row.id, decision.dueAt).then(
        () => decision.dueAt <= now && this.delays.wakePump(),
        () => undefined,
      );
    } else {
      this.metrics.instancesFinished.inc({ status: decision.status });
    }
    await this.admission.ended(row, { kind: 'finished', final: !retry }, this.promoted);
    const ended = { instanceId: row.id, jobId: row.jobId, status: decision.status, final: !retry, at: now };
    await this.attemptEnded.attemptEnded(ended);
    return true;
  }

  private readonly promoted: HandOff = {
    // a promoted WAITING instance goes to the leader's delay pump, due now
    handOff: async (row) => {
      await this.delays.schedule(row.id, row.dueAt);
      this.delays.wakePump();
    },
  };
}
