import { BeforeApplicationShutdown, Inject, Injectable, Logger } from '@nestjs/common';
import { CLOCK, type Clock } from '../../common/index.js';
import { APP_CONFIG, type AppConfig } from '../../config/index.js';
import {
  CallbackDeliveryRepository,
  IdempotencyKeyRepository,
  InstanceRetention,
  JobAttemptRepository,
  JobLogRepository,
  type RetentionTable,
  STATEMENT_ROWS,
} from '../metadata/index.js';
import { type LabelsMatch, MetricsService, type RetentionTableLabel } from '../observability/index.js';

type InstanceTable = Exclude<RetentionTable, 'idempotency_key'>;

/** Longest a pass keeps deleting, ms (half the interval when that is shorter); the next pass goes on. */
const PASS_BUDGET_MS = 30_000;
const _tableLabels: LabelsMatch<RetentionTable, RetentionTableLabel> = true;

/**
 * Retention (docs/long-tasks.md "Retention"), one pass of which the leader runs every RETENTION_INTERVAL_MS (its
 * `retention` duty): removes the namespace's finished instances older than RETENTION_FINISHED_MS with their
 * attempts, log lines and settled callback deliveries, then log lines older than RETENTION_LOGS_MS (0 = that kind
 * kept), then Idempotency-Keys past their expiry (IDEMPOTENCY_KEY_TTL_MS after they were taken; docs/api.md
 * "Idempotency"). Batches of RETENTION_BATCH rows until none is left or the pass ran PASS_BUDGET_MS. A failing
 * statement is logged and the pass goes on with the next kind; passes never overlap.
 */
@Injectable()
export class RetentionService implements BeforeApplicationShutdown {
  private readonly logger = new Logger(RetentionService.name);
  private running: Promise<void> | null = null;

  constructor(
    private readonly instances: InstanceRetention,
    private readonly deliveries: CallbackDeliveryRepository,
    private readonly logs: JobLogRepository,
    private readonly attempts: JobAttemptRepository,
    private readonly keys: IdempotencyKeyRepository,
    private readonly metrics: MetricsService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async beforeApplicationShutdown(): Promise<void> {
    await this.running;
  }

  /** Whether a pass has anything to do: off when both ages are 0 and Idempotency-Keys never expire. */
  get enabled(): boolean {
    const { finishedMs, logsMs } = this.config.retention;
    return finishedMs > 0 || logsMs > 0 || this.purgesKeys();
  }

  /** One pass; never throws. Stops between batches once `signal` aborted (lead lost); joins a pass running. */
  pass(signal?: AbortSignal): Promise<void> {
    this.running ??= this.removeOld(signal)
      .catch((err: Error) => this.logger.error(`retention pass failed: ${err.message}`))
      .finally(() => (this.running = null));
    return this.running;
  }

  private async removeOld(signal?: AbortSignal): Promise<void> {
    const { finishedMs, logsMs, intervalMs, batch } = this.config.retention;
    const now = this.clock.now();
    const deadline = now + Math.min(PASS_BUDGET_MS, intervalMs / 2);
    const ns = this.config.namespace;
    const more = () => this.clock.now() < deadline && !signal?.aborted;
    if (finishedMs > 0) {
      await this.repeat('finished instances', more, async () => {
        const ids = await this.instances.finishedBefore(ns, now - finishedMs, batch);
        if (ids.length === 0) return false;
        const removed = await this.removeInstances(ids, batch);
        this.count(removed);
        // none removed: each was made due again meanwhile (a redeliver); the next pass sees them as they are now
        return ids.length === batch && removed.job_instance > 0;
      });
    }
    if (logsMs > 0) {
      await this.repeat('old log lines', more, async () => {
        const ids = await this.logs.idsBefore(ns, now - logsMs, batch);
        if (ids.length > 0) this.count({ job_log: await this.logs.removeByIds(ids, batch) });
        return ids.length === batch;
      });
    }
    if (this.purgesKeys()) {
      await this.repeat('expired Idempotency-Keys', more, async () => {
        const ids = await this.keys.expiredBefore(ns, now, batch);
        if (ids.length > 0) this.count({ idempotency_key: await this.keys.removeExpired(ids, now, batch) });
        return ids.length === batch;
      });
    }
  }

  /**
   * Removes instances `ids` (finishedBefore) with their settled deliveries, log lines and attempts, children first,
   * so a statement that fails leaves the instance for the next pass. An instance whose delivery was made due again
   * meanwhile (a redeliver) stays, with it. @returns rows removed per table.
   */
  private async removeInstances(ids: string[], batch: number): Promise<Record<InstanceTable, number>> {
    const removed = { callback_delivery: 0, job_log: 0, job_attempt: 0, job_instance: 0 };
    const size = Math.min(batch, STATEMENT_ROWS);
    for (let i = 0; i < ids.length; i += size) {
      const part = ids.slice(i, i + size);
      removed.callback_delivery += await this.deliveries.removeSettled(part, batch);
      const keep = await this.deliveries.instancesWithDelivery(part);
      const gone = part.filter((id) => !keep.has(id));
      if (gone.length === 0) continue;
      removed.job_log += await this.logs.removeOfInstances(gone, batch);
      removed.job_attempt += await this.attempts.removeOfInstances(gone, batch);
      removed.job_instance += await this.instances.removeFinished(gone);
    }
    return removed;
  }

  /** Idempotency-Keys expire (IDEMPOTENCY_KEY_TTL_MS is at least an hour; a config without it has none). */
  private purgesKeys(): boolean {
    return (this.config.idempotencyKeyTtlMs ?? 0) > 0;
  }

  /** Runs `step` while it says there is more and `more()` allows; a failure is logged and ends this kind. */
  private async repeat(what: string, more: () => boolean, step: () => Promise<boolean>): Promise<void> {
    try {
      while ((await step()) && more());
    } catch (err) {
      this.logger.error(`retention of ${what} failed (next pass tries again): ${(err as Error).message}`);
    }
  }

  private count(removed: Partial<Record<RetentionTable, number>>): void {
    for (const [table, n] of Object.entries(removed)) if (n > 0) this.metrics.retentionRowsRemoved.inc({ table }, n);
  }
}
