import { Inject, Injectable, Logger } from '@nestjs/common';
import { groupBy, runLimitOf } from '../../../common/index.js';
import { APP_CONFIG, type AppConfig } from '../../../config/index.js';
import { jobSlots, SEMAPHORES, type SemaphorePort } from '../../coordination/index.js';
import {
  AdmissionInstances,
  FINAL_STATUSES,
  JobInstance,
  JobInstanceStatus,
  type SlotHolderRow,
} from '../../metadata/index.js';

/** A DISPATCHED or RUNNING instance of a limited job: it holds one slot of its job's semaphore. */
export type SlotHolder = SlotHolderRow;

const MAY_HOLD_SLOT = [JobInstanceStatus.PENDING, JobInstanceStatus.DISPATCHED, JobInstanceStatus.RUNNING];
const ENDED = [...FINAL_STATUSES];
/** Holders read at first to rebuild a semaphore (doubled while a read comes back full). */
const JOB_HOLDERS_PAGE = 5000;
const ACQUIRE_ROUNDS = 3; // rebuild-then-acquire rounds, each lost only to another flush

/** The per-job semaphores (holder = instance id); one the port does not know admits nobody until rebuilt. */
@Injectable()
export class JobSemaphore {
  private readonly logger = new Logger(JobSemaphore.name);

  constructor(
    private readonly instances: AdmissionInstances,
    @Inject(SEMAPHORES) private readonly slots: SemaphorePort,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /** {@link acquire} for rows of one job: their longest run limit + LEASE_MS, under the smallest of their limits. */
  acquireFor(jobId: string, group: JobInstance[], now: number): Promise<Set<string>> {
    const ttl = this.ttlOf(group);
    return this.acquire(
      jobId,
      group.map((r) => r.id),
      Math.min(...group.map((r) => r.maxConcurrency)),
      ttl,
      now,
    );
  }

  /** Takes up to `limit` slots for `holders` in order (rebuilding an unknown semaphore). @returns the admitted ids. */
  async acquire(jobId: string, holders: string[], limit: number, ttlMs: number, nowMs: number): Promise<Set<string>> {
    for (let round = 0; round < ACQUIRE_ROUNDS; round++) {
      const admitted = await this.slots.acquireSlots(jobSlots(jobId), holders, limit, ttlMs, nowMs);
      if (admitted) {
        // A row read PENDING may have ended and freed its slot before this took one: nothing else frees it.
        const ended = admitted.length > 0 ? await this.instances.idsInStatus(admitted, ENDED) : new Set<string>();
        for (const id of ended) await this.free(jobId, id);
        return new Set(admitted);
      }
      await this.reassert(await this.holdersOf(jobId), nowMs, new Map([[jobId, ttlMs]]));
    }
    this.logger.warn(
      `job ${jobId}: its maxConcurrency semaphore was lost again ${ACQUIRE_ROUNDS} times while being ` +
        `rebuilt; ${holders.length} instance(s) wait for the next promotion or reconcile pass`,
    );
    return new Set();
  }

  /** A slot outlives its holder's longest run (runLimitOf: timeoutMs, or MAX_RUN_TIME_MS under HEARTBEAT). */
  private ttlOf(group: SlotHolder[]): number {
    const maxRunTimeMs = this.config.longTasks.maxRunTimeMs;
    return Math.max(...group.map((r) => runLimitOf(r, maxRunTimeMs).ms)) + this.config.leaseMs;
  }

  /** Frees the slot instance `id` holds in job `jobId`'s semaphore (nothing when it holds none). */
  free(jobId: string, id: string): Promise<void> {
    return this.slots.releaseSlot(jobSlots(jobId), id);
  }

  /** Makes instance `id` hold a slot whatever the limit, expiring at `untilMs`, when the semaphore is known. */
  async holdUntil(jobId: string, id: string, untilMs: number, nowMs: number): Promise<void> {
    await this.slots.acquireSlots(jobSlots(jobId), [id], Number.MAX_SAFE_INTEGER, untilMs - nowMs, nowMs);
  }

  /** Every DISPATCHED/RUNNING instance of job `jobId`: a truncated read would admit past the limit. */
  private async holdersOf(jobId: string): Promise<SlotHolder[]> {
    for (let take = JOB_HOLDERS_PAGE; ; take *= 2) {
      const rows = await this.instances.findSlotHolders(this.config.namespace, take, [jobId]);
      if (rows.length < take) return rows;
    }
  }

  /**
   * `rows` (as read) hold their slots again; those that left since free theirs, unless in their stop grace. Only the
   * jobs of `rebuild` (id → ttl ms) are marked known (docs/admission.md). @returns the jobs over their limit.
   */
  async reassert(rows: SlotHolder[], nowMs: number, rebuild: Map<string, number> = new Map()): Promise<string[]> {
    const byJob = new Map<string, SlotHolder[]>([...rebuild.keys()].map((jobId) => [jobId, []]));
    for (const [jobId, group] of groupBy(
      rows.filter((r) => r.jobId),
      (r) => r.jobId as string,
    )) {
      byJob.set(jobId, group);
    }
    const stopping = groupBy(await this.instances.findStopping([...rebuild.keys()], nowMs), (r) => r.jobId as string);
    const over: string[] = [];
    const asserted: SlotHolder[] = [];
    for (const [jobId, group] of byJob) {
      const ttl = group.length > 0 ? this.ttlOf(group) : (rebuild.get(jobId) as number);
      const ids = group.map((r) => r.id);
      if (group.length > Math.max(0, ...group.map((r) => r.maxConcurrency))) over.push(jobId);
      if (rebuild.has(jobId)) {
        const inGrace = (stopping.get(jobId) ?? []).map((r) => r.id);
        await this.slots.seedSlots(jobSlots(jobId), [...ids, ...inGrace], ttl, nowMs);
      } else if (!(await this.slots.acquireSlots(jobSlots(jobId), ids, Number.MAX_SAFE_INTEGER, ttl, nowMs))) {
        continue; // not known: nothing written
      }
      asserted.push(...group);
    }
    const holding = await this.instances.idsInStatus(
      asserted.map((r) => r.id),
      MAY_HOLD_SLOT,
    );
    // A row in its stop grace keeps its slot until the grace ends; one whose executor ended it frees it.
    const left = [...asserted.filter((r) => !holding.has(r.id)), ...[...stopping.values()].flat()];
    const jobIds = [...new Set(left.map((r) => r.jobId as string))];
    const graced = await this.instances.findStopping(jobIds, nowMs);
    const still = new Map(graced.map((r) => [r.id, r.leaseUntil as number])); // CANCELLED rows: the grace's end
    for (const r of left) {
      const until = still.get(r.id);
      if (until === undefined) await this.free(r.jobId as string, r.id);
      else await this.holdUntil(r.jobId as string, r.id, until, nowMs);
    }
    return over;
  }
}
