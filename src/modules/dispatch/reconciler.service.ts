import { Inject, Injectable, Logger } from '@nestjs/common';
import { CLOCK, type Clock } from '../../common/index.js';
import { APP_CONFIG, type AppConfig } from '../../config/index.js';
import { COORDINATION, type CoordinationPort } from '../coordination/coordination.port.js';
import { JobAttemptRepository, JobInstance, JobInstanceRepository, JobInstanceStatus } from '../metadata/index.js';
import { MetricsService } from '../observability/index.js';
import { CancelService } from './cancel.service.js';
import { DispatchService } from './dispatch.service.js';
import { NodeRegistryService } from './node-registry.service.js';

const PAGE = 500;

/**
 * The leader's repair loop (DESIGN §3, §6, §7). Redis holds nothing that MySQL cannot rebuild, so each
 * pass re-derives the queues from the rows:
 * 1. due ids from the delay queue are dispatched;
 * 2. PENDING rows that are due but in no queue (lost push, no executor earlier, Redis flushed) are dispatched;
 * 3. nodes that stopped beating (or that hold rows but are not registered at all) are declared offline:
 *    their queues are drained, DISPATCHED rows go back to PENDING (same attempt: they never ran) and
 *    RUNNING rows have their lease revoked (PENDING with attempt+1, or FAILED when attempts are spent);
 * 4. RUNNING rows whose lease expired are treated the same way (a node that beats but hangs);
 * 5. DISPATCHED rows older than one pass whose id is in neither list of their live node are pushed again;
 * 6. a QUEUE job whose WAITING instance has no predecessor left gets it released.
 * Every write is a conditional transition, so a pass racing an executor or another leader changes nothing twice.
 */
@Injectable()
export class ReconcilerService {
  private readonly logger = new Logger(ReconcilerService.name);

  constructor(
    private readonly instances: JobInstanceRepository,
    private readonly attempts: JobAttemptRepository,
    private readonly dispatch: DispatchService,
    private readonly cancels: CancelService,
    private readonly registry: NodeRegistryService,
    private readonly metrics: MetricsService,
    @Inject(COORDINATION) private readonly coordination: CoordinationPort,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  /** Moves due ids out of the delay queue into dispatch. Returns how many were taken. */
  async pumpDelayed(): Promise<number> {
    const ids = await this.coordination.takeDue(this.clock.now(), PAGE);
    if (ids.length > 0) await this.dispatch.dispatchIds(ids);
    return ids.length;
  }

  /** One full repair pass (steps 2-5 above). */
  async reconcileOnce(): Promise<void> {
    await this.dispatchForgottenPending();
    await this.reapOfflineNodes();
    await this.expireLeases();
    await this.repushLostDispatches();
    await this.releaseWaiting();
  }

  /** QUEUE backstop: a WAITING instance whose predecessor ended without releasing it (crash, race) gets its turn. */
  private async releaseWaiting(): Promise<void> {
    for (const jobId of await this.instances.jobsWithWaiting(this.config.namespace, PAGE)) await this.cancels.releaseNext(jobId);
  }

  private async dispatchForgottenPending(): Promise<void> {
    const rows = await this.instances.findPendingDue(this.config.namespace, this.clock.now(), PAGE);
    if (rows.length > 0) await this.dispatch.dispatchRows(rows);
  }

  private async reapOfflineNodes(): Promise<void> {
    const live = new Set((await this.registry.liveNodes()).map((n) => n.nodeId));
    this.metrics.liveExecutors.set(live.size);
    const stale = (await this.registry.staleNodes()).map((n) => n.nodeId);
    const withWork = await this.instances.nodesWithWork(this.config.namespace);
    const offline = [...new Set([...stale, ...withWork.filter((n) => !live.has(n))])];
    for (const nodeId of offline) {
      await this.coordination.drainNode(nodeId);
      const rows = await this.instances.findOnNode(nodeId, [JobInstanceStatus.DISPATCHED, JobInstanceStatus.RUNNING], 10_000);
      for (const row of rows) await this.requeue(row, 'NODE_LOST');
      await this.coordination.removeNode(nodeId);
      if (rows.length > 0) this.logger.warn(`node ${nodeId} offline: ${rows.length} instance(s) routed again`);
    }
    if (offline.length > 0) this.registry.invalidate();
  }

  private async expireLeases(): Promise<void> {
    const rows = await this.instances.findExpiredLeases(this.config.namespace, this.clock.now(), PAGE);
    for (const row of rows) await this.requeue(row, 'LEASE_LOST');
  }

  private async repushLostDispatches(): Promise<void> {
    const before = this.clock.now() - this.config.reconcileIntervalMs;
    const rows = await this.instances.findDispatchedBefore(this.config.namespace, before, PAGE);
    for (const row of rows) {
      if (!row.nodeId || (await this.coordination.isQueued(row.nodeId, row.id))) continue;
      // The page was read before the queue check: an executor may have claimed, run and acked the row
      // since. Only a row that is *still* DISPATCHED to that node, and in no list, was really lost.
      const now = await this.instances.findById(row.id);
      if (now?.status !== JobInstanceStatus.DISPATCHED || now.nodeId !== row.nodeId || now.dispatchedAt !== row.dispatchedAt) continue;
      if (await this.coordination.isQueued(row.nodeId, row.id)) continue;
      await this.coordination.pushReady(row.nodeId, [row.id]);
      this.logger.warn(`instance ${row.id} was DISPATCHED to ${row.nodeId} but in no queue; pushed again`);
    }
  }

  /**
   * Takes a row back from a lost node or lease. DISPATCHED never ran: back to PENDING, same attempt.
   * RUNNING may have run: the attempt is closed as `reason`, and the row goes to PENDING with attempt+1
   * (a new fencing token is issued at the next claim) or to FAILED when no attempt is left.
   */
  private async requeue(row: JobInstance, reason: 'NODE_LOST' | 'LEASE_LOST'): Promise<void> {
    const now = this.clock.now();
    let won: boolean;
    if (row.status === JobInstanceStatus.DISPATCHED) {
      won = await this.instances.transition(row.id, row.status, JobInstanceStatus.PENDING, { attempt: row.attempt, nodeId: row.nodeId ?? undefined }, { nodeId: null, dispatchedAt: null }, now);
    } else if (row.attempt < row.maxAttempts) {
      won = await this.instances.transition(row.id, row.status, JobInstanceStatus.PENDING, { attempt: row.attempt, fencingToken: row.fencingToken },
        { attempt: row.attempt + 1, nodeId: null, leaseUntil: null, dispatchedAt: null, dueAt: now, error: reason }, now);
      if (won) {
        await this.attempts.finish(row.id, row.attempt, reason, `${reason} on ${row.nodeId}`, now);
        this.metrics.retries.inc();
      }
    } else {
      won = await this.instances.transition(row.id, row.status, JobInstanceStatus.FAILED, { attempt: row.attempt, fencingToken: row.fencingToken },
        { leaseUntil: null, finishedAt: now, error: `${reason}: ${row.nodeId} stopped and no attempt is left` }, now);
      if (won) {
        await this.attempts.finish(row.id, row.attempt, reason, `${reason} on ${row.nodeId}`, now);
        this.metrics.instancesFinished.inc({ status: JobInstanceStatus.FAILED });
      }
    }
    const backToPending = row.status === JobInstanceStatus.DISPATCHED || row.attempt < row.maxAttempts;
    if (won && backToPending) await this.dispatch.dispatchIds([row.id]);
  }
}
