import { BeforeApplicationShutdown, Inject, Injectable, Logger } from '@nestjs/common';
import { CLOCK, type Clock, groupBy } from '../../common/index.js';
import { APP_CONFIG, type AppConfig } from '../../config/index.js';
import { COORDINATION, type CoordinationPort, type LiveNode } from '../coordination/index.js';
import { JobAttemptRepository, JobInstance, JobInstanceRepository, JobInstanceStatus, type Tx } from '../metadata/index.js';
import { decideOutcome, type TakeBackReason } from '../execution/index.js';
import { MetricsService } from '../observability/index.js';
import { CancelService } from './cancel.service.js';
import { DispatchService } from './dispatch.service.js';
import { JobSlotsService } from './job-slots.service.js';
import { NodeRegistryService } from './node-registry.service.js';
import { QuarantineService } from './quarantine.service.js';

const PAGE = 500;
/** Rows taken back at once (each its own small transaction), then dispatched in one call. */
const REQUEUE_CHUNK = 20;
/** Limited instances re-asserted per pass (narrow rows; normally no more than the sum of the jobs' limits). */
const SLOT_PAGE = 5000;
type DispatchedRef = Pick<JobInstance, 'id' | 'nodeId' | 'dispatchedAt'>;

/**
 * The leader's repair loop (DESIGN §3, §6, §7). Redis holds nothing that MySQL cannot rebuild, so each
 * pass re-derives the queues from the rows:
 * 0. each DISPATCHED or RUNNING instance of a job with maxConcurrency holds its slot again, in the semaphores Redis
 *    still knows (one it lost is rebuilt by dispatch, from a read taken after the loss);
 * 1. due ids from the delay queue are dispatched;
 * 2. PENDING rows that are due but in no queue (lost push, no executor earlier, Redis flushed) are dispatched;
 * 3. nodes that stopped beating are declared offline: their queues are drained, DISPATCHED rows go back to
 *    PENDING (same attempt: they never ran) and RUNNING rows have their lease revoked (PENDING with
 *    attempt+1, or FAILED when attempts are spent). A node that holds rows but is not registered at all
 *    (Redis lost its registry, or it never beat) counts as silent from when this reconciler first missed
 *    it: after a FLUSHALL every live node beats again within a heartbeat, and its running work must not
 *    be revoked and run twice for the registry's loss;
 * 4. RUNNING rows whose lease expired are treated the same way (a node that beats but hangs);
 * 5. DISPATCHED rows older than one pass whose id is in neither list of their node are pushed again;
 * 6. a QUEUE job whose WAITING instance has no predecessor left gets it released.
 * Every write is a conditional transition, so a pass racing an executor or another leader changes nothing twice.
 * No row stops a pass: a row whose stored data cannot be read is quarantined (QuarantineService: FAILED with the
 * reason, counted, logged) wherever a step meets it, one row's failure is logged and the step goes on with the
 * others, and one step's failure is logged and the pass goes on with the next step (issue 9).
 *
 * Offline detection does not wait for the next pass: each pass (and each offline check) arms one timer for
 * the instant the quietest live node would cross NODE_OFFLINE_AFTER_MS, when that falls before the next
 * pass is due, and runs step 3 then. A SIGKILLed executor's leases are thus revoked at the threshold
 * (15 s by default), not up to one RECONCILE_INTERVAL_MS after it (20 s). The timer is armed only up to
 * one interval after the latest pass, so a scheduler that stops leading (no more passes) stops checking.
 */
@Injectable()
export class ReconcilerService implements BeforeApplicationShutdown {
  private readonly logger = new Logger(ReconcilerService.name);
  /** Cancels the armed offline check, if any. */
  private offlineWatch: (() => void) | null = null;
  /** The watch may fire up to here: one interval after the latest pass began. */
  private watchUntil = 0;
  /** The offline check in progress (checks never overlap). */
  private reaping: Promise<void> = Promise.resolve();
  /** Where the next pass's page of limited holders (step 0) and of jobs with WAITING rows (step 6) starts. */
  private slotCursor = '';
  private waitingCursor = '';
  /** Nodes holding rows without being registered, and when this reconciler first saw that (epoch ms). */
  private readonly missingSince = new Map<string, number>();

  constructor(
    private readonly instances: JobInstanceRepository,
    private readonly attempts: JobAttemptRepository,
    private readonly dispatch: DispatchService,
    private readonly cancels: CancelService,
    private readonly registry: NodeRegistryService,
    private readonly metrics: MetricsService,
    private readonly slots: JobSlotsService,
    private readonly quarantine: QuarantineService,
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

  /**
   * One full repair pass (steps 0 and 2-6 above), step 0 before step 2 dispatches anything. A FLUSHALL takes the leader
   * lock with it too: the leader loses the lead at its next renewal and, on taking it again, runs a pass at once.
   */
  async reconcileOnce(): Promise<void> {
    this.watchUntil = this.clock.now() + this.config.reconcileIntervalMs;
    await this.step('re-asserting maxConcurrency slots', () => this.reassertSlots());
    await this.step('dispatching forgotten PENDING rows', () => this.dispatchForgottenPending());
    await this.step('the offline check', () => this.checkOffline(true));
    await this.step('taking back expired leases', () => this.expireLeases());
    await this.step('pushing lost dispatches again', () => this.repushLostDispatches());
    await this.step('releasing WAITING rows', () => this.releaseWaiting());
  }

  /** Runs one step of a pass; its failure is logged, and the pass goes on with the next step. */
  private async step(what: string, fn: () => Promise<void>): Promise<void> {
    await fn().catch((err: Error) => this.logger.error(`reconcile pass: ${what} failed: ${err.message}`));
  }

  /** QUEUE backstop: a WAITING instance whose predecessor ended without releasing it (crash, race) gets its turn. */
  private async releaseWaiting(): Promise<void> {
    const jobs = await this.instances.jobsWithWaiting(this.config.namespace, PAGE, this.waitingCursor);
    this.waitingCursor = jobs.length < PAGE ? '' : jobs[jobs.length - 1]; // a page per pass, round all of them
    for (const jobId of jobs) {
      await this.cancels.releaseNext(jobId).catch((err: Error) => this.logger.error(`releasing the next WAITING instance of job ${jobId} failed: ${err.message}`));
    }
  }

  private async dispatchForgottenPending(): Promise<void> {
    const rows = await this.quarantine.screen(await this.instances.findPendingDue(this.config.namespace, this.clock.now(), PAGE));
    if (rows.length > 0) await this.dispatch.dispatchRows(rows);
  }

  /** Stops the offline watch and waits for a check in progress (the connections close after this). */
  async beforeApplicationShutdown(): Promise<void> {
    this.watchUntil = 0;
    this.offlineWatch?.();
    this.offlineWatch = null;
    await this.reaping;
  }

  /** Step 3, one check at a time (a pass and the watch timer may both ask), then re-arms the watch. */
  private checkOffline(withMetrics: boolean): Promise<void> {
    const run = this.reaping.then(async () => this.armOfflineWatch(await this.reapOfflineNodes(withMetrics)));
    this.reaping = run.catch(() => undefined);
    return run;
  }

  /**
   * Arms the offline check for the first instant a node would count as offline if it stays silent (`quietSince`:
   * last beats of live nodes, first-missed times of unregistered ones), when that comes before the next pass
   * is due (else that pass arms it). A node that appears after this check crosses no sooner than one threshold
   * from now, so the check never lies further away than that. Replaces any armed check.
   */
  private armOfflineWatch(quietSince: number[]): void {
    this.offlineWatch?.();
    this.offlineWatch = null;
    const now = this.clock.now();
    const at = Math.min(now, ...quietSince.map((t) => t + 1)) + this.config.nodeOfflineAfterMs;
    if (at > this.watchUntil) return;
    this.offlineWatch = this.clock.schedule(Math.max(0, at - now), () => {
      this.offlineWatch = null;
      this.checkOffline(false).catch((err: Error) => this.logger.error(`offline check failed: ${err.message}`));
    });
  }

  /**
   * Declares offline the nodes that stopped beating (or that hold rows but have not been registered for
   * NODE_OFFLINE_AFTER_MS) and takes their work back; with `withMetrics`, also sets the live-node and
   * queue-depth gauges.
   * @returns when each node still counted live went quiet: its last beat, or when it was first missed.
   */
  private async reapOfflineNodes(withMetrics: boolean): Promise<number[]> {
    const liveNodes = await this.registry.liveNodes();
    const live = new Set(liveNodes.map((n) => n.nodeId));
    if (withMetrics) {
      this.metrics.liveExecutors.set(live.size);
      this.metrics.queueDepth.reset(); // nodes gone since the last pass drop out
      for (const nodeId of live) {
        const depth = await this.coordination.queueDepth(nodeId);
        this.metrics.queueDepth.set({ node: nodeId, list: 'ready' }, depth.ready);
        this.metrics.queueDepth.set({ node: nodeId, list: 'processing' }, depth.processing);
      }
    }
    const stale = (await this.registry.staleNodes()).map((n) => n.nodeId);
    const withWork = await this.instances.nodesWithWork(this.config.namespace);
    const now = this.clock.now();
    const unregistered = new Set(withWork.filter((n) => !live.has(n) && !stale.includes(n)));
    for (const nodeId of this.missingSince.keys()) if (!unregistered.has(nodeId)) this.missingSince.delete(nodeId);
    for (const nodeId of unregistered) if (!this.missingSince.has(nodeId)) this.missingSince.set(nodeId, now);
    const lost = [...unregistered].filter((n) => now - (this.missingSince.get(n) as number) > this.config.nodeOfflineAfterMs);
    const offline = [...new Set([...stale, ...lost])];
    // The registry's cached view may predate the silence: routing their work again must not pick these nodes.
    if (offline.length > 0) this.registry.invalidate();
    for (const nodeId of offline) {
      await this.coordination.drainNode(nodeId);
      const rows = await this.instances.findOnNode(nodeId, [JobInstanceStatus.DISPATCHED, JobInstanceStatus.RUNNING], 10_000);
      await this.requeue(rows, 'NODE_LOST');
      await this.coordination.removeNode(nodeId);
      if (rows.length > 0) this.logger.warn(`node ${nodeId} offline: ${rows.length} instance(s) routed again`);
    }
    if (offline.length > 0) this.registry.invalidate();
    for (const nodeId of lost) this.missingSince.delete(nodeId);
    return [...liveNodes.map((n) => n.lastBeat), ...this.missingSince.values()];
  }

  private async expireLeases(): Promise<void> {
    const rows = await this.instances.findExpiredLeases(this.config.namespace, this.clock.now(), PAGE);
    await this.requeue(rows, 'LEASE_LOST');
  }

  /** Step 5, by node: one atomic snapshot of its lists (not a check per row: with thousands queued that cost most of a pass). */
  private async repushLostDispatches(): Promise<void> {
    const before = this.clock.now() - this.config.reconcileIntervalMs;
    const refs = await this.instances.findDispatchedRefsBefore(this.config.namespace, before, PAGE);
    const byNode = groupBy(refs.filter((r) => r.nodeId), (r) => r.nodeId as string);
    for (const [nodeId, group] of byNode) {
      const queued = await this.coordination.queuedIds(nodeId);
      const missing = group.filter((r) => !queued.has(r.id));
      if (missing.length > 0) await this.repushOnNode(nodeId, missing);
    }
  }

  /**
   * Pushes again, in one push, those of `missing` (rows of the page absent from the node's snapshot) that
   * were really lost. The page was read before the snapshot: an executor may have claimed, run and acked a
   * row since. Only a row *still* DISPATCHED to that node with the same dispatchedAt, and absent from a
   * second snapshot taken after that re-read (a late push or a claim may have moved the id), is pushed.
   */
  private async repushOnNode(nodeId: string, missing: DispatchedRef[]): Promise<void> {
    const was = new Map(missing.map((r) => [r.id, r.dispatchedAt]));
    const still = (await this.quarantine.screen(await this.instances.findByIds([...was.keys()])))
      .filter((r) => r.status === JobInstanceStatus.DISPATCHED && r.nodeId === nodeId && r.dispatchedAt === was.get(r.id));
    if (still.length === 0) return;
    const queued = await this.coordination.queuedIds(nodeId);
    const lost = still.filter((r) => !queued.has(r.id)).map(({ id, appId }) => ({ id, appId }));
    if (lost.length === 0) return;
    await this.coordination.pushReady(nodeId, lost);
    for (const { id } of lost) this.logger.warn(`instance ${id} was DISPATCHED to ${nodeId} but in no queue; pushed again`);
  }

  /**
   * Step 0 (DESIGN §7 "Limits"): every DISPATCHED or RUNNING instance of a limited job holds a slot of its
   * job's semaphore again, expiring timeoutMs + LEASE_MS from now as dispatch's slots do ({@link JobSlotsService.seed}),
   * where Redis still knows the semaphore: this read may predate a loss, and an instance admitted between the
   * read and the loss would be missing from a semaphore marked known from it. Dispatch rebuilds a semaphore
   * Redis lost before it admits anyone; this pass keeps the holders of long runs from expiring.
   */
  private async reassertSlots(): Promise<void> {
    const rows = await this.instances.findSlotHolders(this.config.namespace, SLOT_PAGE, undefined, this.slotCursor);
    this.slotCursor = rows.length < SLOT_PAGE ? '' : rows[rows.length - 1].id; // a page per pass, round all of them
    for (const jobId of await this.slots.seed(rows, this.clock.now())) {
      this.logger.warn(`job ${jobId}: more instances dispatched or running than its maxConcurrency (the limit was lowered, ` +
        'or Redis lost its semaphore while instances were being admitted); new ones wait until they end');
    }
  }

  /**
   * Takes rows back from a lost node or lease, {@link REQUEUE_CHUNK} at a time, and routes those that went
   * back to PENDING again in one dispatch per chunk (a killed node may hold thousands of queued rows).
   */
  private async requeue(all: JobInstance[], reason: 'NODE_LOST' | 'LEASE_LOST'): Promise<void> {
    const rows = await this.quarantine.screen(all);
    for (let i = 0; i < rows.length; i += REQUEUE_CHUNK) {
      const back = await Promise.all(rows.slice(i, i + REQUEUE_CHUNK).map((row) => this.takeBack(row, reason).catch((err: Error) => {
        this.logger.error(`taking back instance ${row.id} (${reason}) failed: ${err.message}; tried again next pass`);
        return null;
      })));
      const ids = back.filter((id): id is string => id !== null);
      if (ids.length > 0) await this.dispatch.dispatchIds(ids);
    }
  }

  /**
   * Takes one row back, as the outcome policy decides ({@link decideOutcome}): DISPATCHED never ran and goes
   * back to PENDING, same attempt; RUNNING may have run: PENDING with attempt+1 (a new fencing token is issued at
   * the next claim) or FAILED when no attempt is left, its attempt closed as `reason` in the same transaction.
   * @returns the id when the row went back to PENDING (to be dispatched), else null.
   */
  private async takeBack(row: JobInstance, reason: TakeBackReason): Promise<string | null> {
    const now = this.clock.now();
    const running = row.status === JobInstanceStatus.RUNNING;
    const decision = decideOutcome(row, running ? { kind: 'takenBack', reason } : { kind: 'notStarted' }, now);
    const backToPending = decision.verdict !== 'FAIL';
    const won = await this.instances.together(async (em) => {
      if (!running) {
        const guard = { attempt: row.attempt, nodeId: row.nodeId ?? undefined };
        return this.instances.transition(row.id, row.status, decision.status, guard, decision.patch, now, em);
      }
      const guard = { attempt: row.attempt, fencingToken: row.fencingToken };
      const moved = await this.instances.transition(row.id, row.status, decision.status, guard, decision.patch, now, em);
      if (!moved) return false;
      await this.closeAttempt(row, reason, now, em);
      return true;
    });
    if (!won) return null;
    if (running) {
      this.metrics.leaseExpiries.inc({ reason });
      if (backToPending) this.metrics.retries.inc();
      else this.metrics.instancesFinished.inc({ status: JobInstanceStatus.FAILED });
    }
    if (row.jobId) await this.cancels.freeSlot(row.jobId, row.id, row.maxConcurrency);
    return backToPending ? row.id : null;
  }

  /**
   * Closes the taken-away attempt as `reason`. An executor killed between its claim and the insert of its
   * attempt row leaves none: the row is written here (node, token and start from the instance), so every
   * attempt of the instance stays traceable in job_attempt.
   */
  private async closeAttempt(row: JobInstance, reason: 'NODE_LOST' | 'LEASE_LOST', now: number, em: Tx | undefined): Promise<void> {
    await this.attempts.start(row.id, row.attempt, row.nodeId ?? 'unknown', row.fencingToken, row.startedAt ?? now, em);
    await this.attempts.finish(row.id, row.attempt, reason, `${reason} on ${row.nodeId}`, now, em);
  }
}
