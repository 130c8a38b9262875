import { Inject, Injectable, Logger } from '@nestjs/common';
import { CLOCK, type Clock } from '../../common/index.js';
import { APP_CONFIG, type AppConfig } from '../../config/index.js';
import {
  BackoffKind,
  JobAttemptRepository,
  JobDefinitionRepository,
  JobInstance,
  JobInstanceRepository,
  JobInstanceStatus as S,
  TriggerType,
} from '../metadata/index.js';
import { COORDINATION, type CoordinationPort } from '../coordination/coordination.port.js';
import { MetricsService } from '../observability/index.js';
import { HandlerRegistry } from './handler-registry.service.js';
import { JobContext, JobFailure } from './job-context.js';
import { backoffDelayMs, boundResult } from './outcome.util.js';

/** A claimed attempt that is running on this node. */
export interface RunningAttempt {
  instanceId: string;
  fencingToken: number;
  controller: AbortController;
}

type Outcome =
  | { status: S.SUCCESS; result: unknown }
  | { status: S.FAILED | S.TIMEOUT | S.CANCELLED; error: string; result?: unknown }
  /** Aborted by this node's shutdown: handed back without using up an attempt. */
  | { status: 'HANDED_BACK'; error: string; result?: unknown };

/**
 * Runs one claimed instance on this node (DESIGN §4, §7):
 * 1. claim: DISPATCHED→RUNNING only if the row is still assigned to this node at this attempt; the write
 *    issues the next fencing token and the lease;
 * 2. run the handler with a JobContext whose signal aborts on timeout, lost lease or shutdown;
 * 3. finish: one conditional write guarded by the fencing token — SUCCESS, or FAILED/TIMEOUT, or back to
 *    PENDING with attempt+1 after the backoff when attempts remain.
 * A write that loses (0 rows) means someone else took the row (lease revoked); it is logged, nothing more.
 */
@Injectable()
export class TaskRunner {
  private readonly logger = new Logger(TaskRunner.name);
  readonly running = new Map<string, RunningAttempt>();

  constructor(
    private readonly instances: JobInstanceRepository,
    private readonly attempts: JobAttemptRepository,
    private readonly jobs: JobDefinitionRepository,
    private readonly handlers: HandlerRegistry,
    private readonly metrics: MetricsService,
    @Inject(COORDINATION) private readonly coordination: CoordinationPort,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  /** Extends the lease of a running attempt; false when the row is no longer ours (token superseded). */
  renewLease(att: RunningAttempt, until: number): Promise<boolean> {
    return this.instances.renewLease(att.instanceId, att.fencingToken, until, this.clock.now());
  }

  /** Claims and runs instance `id` for node `nodeId`. Never throws. */
  async run(id: string, nodeId: string, shutdown: AbortSignal): Promise<void> {
    const row = await this.instances.findById(id);
    if (!row || row.status !== S.DISPATCHED || row.nodeId !== nodeId) return;
    const token = row.fencingToken + 1;
    const startedAt = this.clock.now();
    const claimed = await this.instances.transition(id, S.DISPATCHED, S.RUNNING, { attempt: row.attempt, nodeId },
      { fencingToken: token, leaseUntil: startedAt + this.config.leaseMs, startedAt }, startedAt);
    if (!claimed) return;
    await this.attempts.start(id, row.attempt, nodeId, token, startedAt);
    const controller = new AbortController();
    this.running.set(id, { instanceId: id, fencingToken: token, controller });
    try {
      const outcome = await this.execute(row, token, controller, shutdown);
      this.metrics.executionSeconds.observe({ handler: row.handler, outcome: outcome.status }, (this.clock.now() - startedAt) / 1000);
      await this.finish(row, token, outcome);
    } finally {
      this.running.delete(id);
    }
  }

  private async execute(row: JobInstance, token: number, controller: AbortController, shutdown: AbortSignal): Promise<Outcome> {
    const handler = this.handlers.get(row.handler);
    if (!handler) return { status: S.FAILED, error: `no handler '${row.handler}' on this node` };
    const timeout = setTimeout(() => controller.abort(new Error('TIMEOUT')), row.timeoutMs);
    const onShutdown = () => controller.abort(new Error('SHUTDOWN'));
    shutdown.addEventListener('abort', onShutdown, { once: true });
    const logger = new Logger(`job:${row.handler}:${row.traceId}`);
    const ctx: JobContext = {
      requestId: row.requestId, instanceId: row.id, jobCode: row.jobCode, params: row.params, attempt: row.attempt,
      maxAttempts: row.maxAttempts, fencingToken: token, shardIndex: row.shardIndex, shardTotal: row.shardTotal,
      fireTime: row.fireTime, traceId: row.traceId, signal: controller.signal, logger,
      progress: (pct, note) => logger.log(`progress ${Math.max(0, Math.min(100, pct))}%${note ? ` ${note}` : ''}`),
    };
    try {
      const result = await Promise.race([handler.execute(ctx), abortPromise(controller.signal)]);
      return { status: S.SUCCESS, result };
    } catch (err) {
      const reason = controller.signal.aborted ? String((controller.signal.reason as Error)?.message ?? '') : '';
      if (reason === 'TIMEOUT') return { status: S.TIMEOUT, error: `timed out after ${row.timeoutMs} ms` };
      if (reason === 'SHUTDOWN') return { status: 'HANDED_BACK', error: 'node shut down before the handler finished' };
      if (reason === 'REVOKED') return { status: S.CANCELLED, error: 'cancelled (or taken away) while running' };
      const e = err as Error;
      return { status: S.FAILED, error: `${e.name === 'Error' ? '' : `${e.name}: `}${e.message}`, result: err instanceof JobFailure ? err.result : undefined };
    } finally {
      clearTimeout(timeout);
      shutdown.removeEventListener('abort', onShutdown);
    }
  }

  private async finish(row: JobInstance, token: number, outcome: Outcome): Promise<void> {
    const now = this.clock.now();
    if (outcome.status === S.CANCELLED) {
      // The row was already moved by the canceller (or the reconciler): only close this attempt.
      await this.attempts.finish(row.id, row.attempt, S.CANCELLED, outcome.error, now);
      if (row.jobId) await this.releaseNextWaiting(row.jobId, now);
      return;
    }
    const guard = { attempt: row.attempt, fencingToken: token };
    const result = boundResult(outcome.result);
    const handBack = outcome.status === 'HANDED_BACK';
    const retry = handBack || (outcome.status !== S.SUCCESS && row.attempt < row.maxAttempts);
    let won: boolean;
    if (handBack) {
      won = await this.instances.transition(row.id, S.RUNNING, S.PENDING, guard,
        { attempt: row.attempt + 1, maxAttempts: row.maxAttempts + 1, nodeId: null, leaseUntil: null, dispatchedAt: null, dueAt: now, error: outcome.error }, now);
    } else if (retry) {
      const dueAt = now + backoffDelayMs(row.retryBackoffMs, row.retryBackoffKind as BackoffKind, row.attempt);
      won = await this.instances.transition(row.id, S.RUNNING, S.PENDING, guard,
        { attempt: row.attempt + 1, nodeId: null, leaseUntil: null, dispatchedAt: null, dueAt, error: outcome.error, result }, now);
      if (won) this.metrics.retries.inc();
    } else {
      const error = outcome.status === S.SUCCESS ? null : outcome.error;
      const status = outcome.status as S.SUCCESS | S.FAILED | S.TIMEOUT | S.CANCELLED;
      won = await this.instances.transition(row.id, S.RUNNING, status, guard, { result, error, leaseUntil: null, finishedAt: now }, now);
      if (won) this.metrics.instancesFinished.inc({ status });
    }
    if (!won) {
      this.logger.warn(`instance ${row.id} attempt ${row.attempt}: finishing write rejected (lease lost, token ${token} is stale)`);
      return;
    }
    await this.attempts.finish(row.id, row.attempt, outcome.status, outcome.status === S.SUCCESS ? null : outcome.error, now);
    if (!retry && row.jobId) await this.afterFinal(row.jobId, now);
  }

  /** QUEUE overlap: hands the job's next WAITING instance to the leader's delay pump, due now. */
  private async releaseNextWaiting(jobId: string, now: number): Promise<void> {
    const released = await this.instances.releaseNextWaiting(jobId, now);
    if (released) await this.coordination.scheduleDelayed(released.id, now);
  }

  /** Ids of running attempts whose row was cancelled or taken away since they started. */
  async revokedAttempts(): Promise<RunningAttempt[]> {
    const running = [...this.running.values()];
    const gone = new Set(await this.instances.notRunningAnyMore(running.map((a) => ({ id: a.instanceId, fencingToken: a.fencingToken }))));
    return running.filter((a) => gone.has(a.instanceId));
  }

  /** FIXED_DELAY: the next fire is counted from this finish (DESIGN §5). */
  private async afterFinal(jobId: string, now: number): Promise<void> {
    await this.releaseNextWaiting(jobId, now);
    const def = await this.jobs.findById(this.config.namespace, jobId);
    if (def?.enabled && def.triggerType === TriggerType.FIXED_DELAY && def.nextFireTime === null) {
      await this.jobs.setNextFire(def.id, now + Number(def.triggerExpr), now);
    }
  }
}

function abortPromise(signal: AbortSignal): Promise<never> {
  return new Promise((_, reject) => {
    if (signal.aborted) reject(signal.reason);
    signal.addEventListener('abort', () => reject(signal.reason), { once: true });
  });
}
