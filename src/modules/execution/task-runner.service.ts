import { Inject, Injectable, Logger } from '@nestjs/common';
import { CLOCK, type Clock } from '../../common/index.js';
import { APP_CONFIG, type AppConfig } from '../../config/index.js';
import { type ClaimedInstance, ExecutionLedger, JobInstanceStatus as S, withDbRetry } from '../metadata/index.js';
import { type ExecutionOutcomeLabel, type LabelsMatch, MetricsService } from '../observability/index.js';
import { AppHold } from './app-hold.js';
import { AttemptExecution } from './attempt-execution.js';
import { AttemptFinish } from './attempt-finish.js';
import { LateStarts } from './late-starts.js';
import type { AttemptOutcome } from './outcome-policy.js';

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

/** How long the read before a claim is retried through transient database errors (nothing written yet). */
const CLAIM_RETRY_MS = 5_000;

/**
 * Runs claimed instances on this node (docs/execution.md): claims k in one statement, runs each with its parts
 * ({@link AttemptExecution}, then {@link AttemptFinish}), keeps the running attempts and each id's worker slot.
 */
@Injectable()
export class TaskRunner {
  private readonly logger = new Logger(TaskRunner.name);
  /** By `<instance id>#<token>`: an instance taken back here may run here again while its old attempt ends. */
  readonly running = new Map<string, RunningAttempt>();
  private lastClaimAt = 0;

  constructor(
    @Inject(AttemptExecution) private readonly execution: Pick<AttemptExecution, 'run'>,
    @Inject(AttemptFinish) private readonly finishing: Pick<AttemptFinish, 'finish'>,
    @Inject(ExecutionLedger) private readonly ledger: Pick<ExecutionLedger, 'findMany' | 'claim'>,
    @Inject(MetricsService) private readonly metrics: Pick<MetricsService, 'executionSeconds'>,
    @Inject(APP_CONFIG) private readonly config: Pick<AppConfig, 'leaseMs'>,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(AppHold) private readonly hold: Pick<AppHold, 'startable'>,
    @Inject(LateStarts) private readonly late: Pick<LateStarts, 'claimed'>,
  ) {}

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
      // Rows stay DISPATCHED (or RUNNING till their lease ends, if committed unseen); acked, the reconciler finds
      // them in no queue and pushes them again.
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
            this.logger.error({ traceId: c.row.traceId, msg: `instance ${c.row.id}: ${err.message}` });
            handlerDone(); // runClaimed failed before it could watch the handler
          })
          .finally(() => hooks.ended(c.row.id));
      }),
    );
  }

  private async claim(ids: string[], nodeId: string): Promise<ClaimedInstance[]> {
    const found = (await withDbRetry(() => this.ledger.findMany(ids), CLAIM_RETRY_MS)).filter(
      (r) => r.status === S.DISPATCHED && r.nodeId === nodeId,
    );
    const rows = await this.hold.startable(found, nodeId); // a disabled client's work waits, not started
    if (rows.length === 0) return [];
    // Each claim its own started_at: the ledger knows its own write (answer lost) by node, token and started_at,
    // and two claims in one millisecond would both take the winner's write for theirs (one attempt run twice).
    const now = Math.max(this.clock.now(), this.lastClaimAt + 1);
    this.lastClaimAt = now;
    const until = now + this.config.leaseMs;
    // It may commit unseen: retried with the same `now` (for half the lease it gives), it finds its own rows.
    const write = () => this.ledger.claim(undefined, rows, nodeId, now, until);
    const claimed = await withDbRetry(write, this.config.leaseMs / 2, { elapsed: true });
    this.late.claimed(claimed);
    return claimed;
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
      await this.finishing.finish({ row, token, nodeId, startedAt: claimed.startedAt, outcome, handler, endedInTime });
    } finally {
      this.running.delete(key);
    }
  }
}
