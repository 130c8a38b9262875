import { BeforeApplicationShutdown, Inject, Injectable, Logger } from '@nestjs/common';
import { CLOCK, type Clock, groupBy } from '../../common/index.js';
import { APP_CONFIG, type AppConfig } from '../../config/index.js';
import { NODE_QUEUES, type NodeQueuePort } from '../coordination/index.js';
import { InstanceReads, JobInstance, JobInstanceStatus, ReconcileInstances } from '../metadata/index.js';
import { Admission } from './admission/index.js';
import { DispatchService } from './dispatch.service.js';
import { NodeRegistryService } from './node-registry.service.js';
import { rankedItem } from './ready-rank.js';
import { QuarantineService } from './quarantine.service.js';
import { TakeBack } from './take-back.js';

const PAGE = 500;
type DispatchedRef = Pick<JobInstance, 'id' | 'nodeId' | 'dispatchedAt'>;
const ON_NODE = [JobInstanceStatus.DISPATCHED, JobInstanceStatus.RUNNING];

/** The leader's repair loop (docs/dispatch.md "Reconciler"): a row's or step's failure does not stop a pass. */
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
    private readonly instances: ReconcileInstances,
    private readonly reads: InstanceReads,
    private readonly dispatch: DispatchService,
    private readonly admission: Admission,
    private readonly registry: NodeRegistryService,
    private readonly quarantine: QuarantineService,
    private readonly takeBack: TakeBack,
    @Inject(NODE_QUEUES) private readonly queues: NodeQueuePort,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  /** One full repair pass (steps 0 and 2-6), step 0 before step 2 dispatches anything. */
  async reconcileOnce(): Promise<void> {
    this.watchUntil = this.clock.now() + this.config.reconcileIntervalMs;
    await this.step('re-asserting maxConcurrency slots', () => this.reassertSlots());
    await this.step('dispatching forgotten PENDING rows', () => this.dispatchForgottenPending());
    await this.step('the offline check', () => this.checkOffline());
    await this.step('taking back expired leases', () => this.expireLeases());
    await this.step('pushing lost dispatches again', () => this.repushLostDispatches());
    await this.step('promoting WAITING rows', () => this.promoteWaiting());
  }

  /** Runs one step of a pass; its failure is logged, and the pass goes on with the next step. */
  private async step(what: string, fn: () => Promise<void>): Promise<void> {
    await fn().catch((err: Error) => this.logger.error(`reconcile pass: ${what} failed: ${err.message}`));
  }

  /** Step 6, the backstop: a WAITING instance whose predecessor ended without promoting it (crash, race). */
  private async promoteWaiting(): Promise<void> {
    const jobs = await this.instances.jobsWithWaiting(this.config.namespace, PAGE, this.waitingCursor);
    this.waitingCursor = jobs.length < PAGE ? '' : jobs[jobs.length - 1]; // a page per pass, round all of them
    for (const jobId of jobs) {
      await this.admission
        .promoteNext(jobId, this.dispatch)
        .catch((err: Error) =>
          this.logger.error(`promoting the next WAITING instance of job ${jobId} failed: ${err.message}`),
        );
    }
  }

  private async dispatchForgottenPending(): Promise<void> {
    // A disabled client's rows wait: left out of the page, they never crowd out other apps' rows.
    const held = await this.registry.disabledApps();
    const { namespace, priorityAgingMs } = this.config;
    const due = await this.instances.findPendingDue(namespace, this.clock.now(), PAGE, priorityAgingMs, held);
    const rows = await this.quarantine.screen(due);
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
  private checkOffline(): Promise<void> {
    const run = this.reaping.then(async () => this.armOfflineWatch(await this.reapOfflineNodes()));
    this.reaping = run.catch(() => undefined);
    return run;
  }

  /** Arms (replacing any) the check for when the quietest of `quietSince` (epoch ms) would be offline. */
  private armOfflineWatch(quietSince: number[]): void {
    this.offlineWatch?.();
    this.offlineWatch = null;
    const now = this.clock.now();
    const at = Math.min(now, ...quietSince.map((t) => t + 1)) + this.config.nodeOfflineAfterMs;
    if (at > this.watchUntil) return;
    this.offlineWatch = this.clock.schedule(Math.max(0, at - now), () => {
      this.offlineWatch = null;
      this.checkOffline().catch((err: Error) => this.logger.error(`offline check failed: ${err.message}`));
    });
  }

  /** Takes back silent nodes' work. @returns when each node still live went quiet (epoch ms). */
  private async reapOfflineNodes(): Promise<number[]> {
    const liveNodes = await this.registry.liveNodes();
    const live = new Set(liveNodes.map((n) => n.nodeId));
    const staleNodes = await this.registry.staleNodes();
    const stale = staleNodes.map((n) => n.nodeId);
    const withWork = await this.instances.nodesWithWork(this.config.namespace);
    const now = this.clock.now();
    const unregistered = new Set(withWork.filter((n) => !live.has(n) && !stale.includes(n)));
    for (const nodeId of this.missingSince.keys()) if (!unregistered.has(nodeId)) this.missingSince.delete(nodeId);
    for (const nodeId of unregistered) if (!this.missingSince.has(nodeId)) this.missingSince.set(nodeId, now);
    const silentFor = (n: string) => now - (this.missingSince.get(n) as number);
    const lost = [...unregistered].filter((n) => silentFor(n) > this.config.nodeOfflineAfterMs);
    const offline = [...new Set([...stale, ...lost])];
    // The registry's cached view may predate the silence: routing their work again must not pick these nodes.
    if (offline.length > 0) this.registry.invalidate();
    for (const nodeId of offline) {
      const pushed = new Set(await this.queues.drainNode(nodeId));
      const rows = await this.reads.findOnNode(nodeId, ON_NODE, 10_000);
      const { routed, failed } = await this.takeBack.requeue(rows, 'NODE_LOST', pushed);
      await this.registry.remove(nodeId);
      if (rows.length > 0)
        this.logger.warn(
          `node ${nodeId} offline: ${rows.length} instance(s) on it: ${routed} routed again, ${failed} FAILED ` +
            `(no attempt left), ${rows.length - routed - failed} left (taken meanwhile, or tried again next pass)`,
        );
    }
    if (offline.length > 0) this.registry.invalidate();
    for (const nodeId of lost) this.missingSince.delete(nodeId);
    return [...liveNodes.map((n) => n.lastBeat), ...this.missingSince.values()];
  }

  private async expireLeases(): Promise<void> {
    const rows = await this.instances.findExpiredLeases(this.config.namespace, this.clock.now(), PAGE);
    await this.takeBack.requeue(rows, 'LEASE_LOST');
  }

  /** Step 5, by node: one atomic snapshot of its lists per node, not a check per row. */
  private async repushLostDispatches(): Promise<void> {
    const before = this.clock.now() - this.config.reconcileIntervalMs;
    const refs = await this.instances.findDispatchedRefsBefore(this.config.namespace, before, PAGE);
    const byNode = groupBy(
      refs.filter((r) => r.nodeId),
      (r) => r.nodeId as string,
    );
    for (const [nodeId, group] of byNode) {
      const queued = await this.queues.queuedIds(nodeId);
      const missing = group.filter((r) => !queued.has(r.id));
      if (missing.length > 0) await this.repushOnNode(nodeId, missing);
    }
  }

  /** Pushes again the rows of `missing` still DISPATCHED there, same dispatchedAt, and absent from a 2nd snapshot. */
  private async repushOnNode(nodeId: string, missing: DispatchedRef[]): Promise<void> {
    const was = new Map(missing.map((r) => [r.id, r.dispatchedAt]));
    const reread = await this.quarantine.screen(await this.reads.findByIds([...was.keys()]));
    const still = reread.filter(
      (r) => r.status === JobInstanceStatus.DISPATCHED && r.nodeId === nodeId && r.dispatchedAt === was.get(r.id),
    );
    if (still.length === 0) return;
    const queued = await this.queues.queuedIds(nodeId);
    const lost = still.filter((r) => !queued.has(r.id)).map((r) => rankedItem(r, r.dueAt, this.config.priorityAgingMs));
    if (lost.length === 0) return;
    await this.queues.pushReady(nodeId, lost);
    for (const { id } of lost) {
      this.logger.warn(`instance ${id} was DISPATCHED to ${nodeId} but in no queue; pushed again`);
    }
  }

  /** Step 0: a page of limited DISPATCHED/RUNNING instances hold their slots again (long runs do not expire). */
  private async reassertSlots(): Promise<void> {
    const { over, next } = await this.admission.reassertPage(this.slotCursor);
    this.slotCursor = next; // a page per pass, round all of them
    for (const jobId of over) {
      this.logger.warn(
        `job ${jobId}: more instances dispatched or running than its maxConcurrency (the limit was ` +
          'lowered, or Redis lost its semaphore while instances were being admitted); new ones wait until they end',
      );
    }
  }
}
