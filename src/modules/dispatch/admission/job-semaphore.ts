import { Inject, Injectable, Logger } from '@nestjs/common';
import { groupBy } from '../../../common/index.js';
import { APP_CONFIG, type AppConfig } from '../../../config/index.js';
import { COORDINATION, type CoordinationPort, jobSlots } from '../../coordination/index.js';
import { FINAL_STATUSES, JobInstance, JobInstanceRepository, JobInstanceStatus } from '../../metadata/index.js';

/** A DISPATCHED or RUNNING instance of a limited job: it holds one slot of its job's semaphore. */
export type SlotHolder = Pick<JobInstance, 'id' | 'jobId' | 'status' | 'maxConcurrency' | 'timeoutMs'>;

/** Rows that may hold a slot: dispatch takes it while the row is still PENDING. */
const MAY_HOLD_SLOT = [JobInstanceStatus.PENDING, JobInstanceStatus.DISPATCHED, JobInstanceStatus.RUNNING];
const ENDED = [...FINAL_STATUSES];
/** Holders of one job read at first to rebuild its semaphore (doubled while a read comes back full). */
const JOB_HOLDERS_PAGE = 5000;
/** Rebuild-then-acquire rounds before the rows are left to wait (each round lost only to another flush). */
const ACQUIRE_ROUNDS = 3;

/**
 * The per-job maxConcurrency semaphores (coordination port, holder = instance id), with MySQL as the source of
 * truth. A semaphore the port does not know (never built, expired, lost with Redis) admits nobody until it is
 * rebuilt from the job's DISPATCHED/RUNNING rows and its instances in their stop grace.
 */
@Injectable()
export class JobSemaphore {
  private readonly logger = new Logger(JobSemaphore.name);

  constructor(
    private readonly instances: JobInstanceRepository,
    @Inject(COORDINATION) private readonly coordination: CoordinationPort,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /**
   * {@link acquire} for rows of one job, expiring their largest timeoutMs + LEASE_MS from `now`, under the
   * smallest of their limits (rows made before and after a maxConcurrency change may meet in one batch).
   */
  acquireFor(jobId: string, group: JobInstance[], now: number): Promise<Set<string>> {
    const ttl = Math.max(...group.map((r) => r.timeoutMs)) + this.config.leaseMs;
    return this.acquire(jobId, group.map((r) => r.id), Math.min(...group.map((r) => r.maxConcurrency)), ttl, now);
  }

  /**
   * Takes slots of job `jobId`'s semaphore (at most `limit`) for `holders`, in order, expiring at `nowMs + ttlMs`;
   * a semaphore the port does not know is first rebuilt ({@link reassert}) from a read taken after that.
   * @returns the admitted ids (ended ones included: dispatch finds them not PENDING); empty when the semaphore
   *   was lost again in every round.
   */
  async acquire(jobId: string, holders: string[], limit: number, ttlMs: number, nowMs: number): Promise<Set<string>> {
    for (let round = 0; round < ACQUIRE_ROUNDS; round++) {
      const admitted = await this.coordination.acquireSlots(jobSlots(jobId), holders, limit, ttlMs, nowMs);
      if (admitted) {
        // A row read PENDING may have ended (and freed its slot) before this took one: nothing would free it again.
        const ended = admitted.length > 0 ? await this.instances.idsInStatus(admitted, ENDED) : new Set<string>();
        for (const id of ended) await this.free(jobId, id);
        return new Set(admitted);
      }
      await this.reassert(await this.holdersOf(jobId), nowMs, new Map([[jobId, ttlMs]]));
    }
    this.logger.warn(`job ${jobId}: its maxConcurrency semaphore was lost again ${ACQUIRE_ROUNDS} times while being ` +
      `rebuilt; ${holders.length} instance(s) wait for the next promotion or reconcile pass`);
    return new Set();
  }

  /** Frees the slot instance `id` holds in job `jobId`'s semaphore (nothing when it holds none). */
  free(jobId: string, id: string): Promise<void> {
    return this.coordination.releaseSlot(jobSlots(jobId), id);
  }

  /** Makes instance `id` hold a slot whatever the limit, expiring at `untilMs`, when the semaphore is known. */
  async holdUntil(jobId: string, id: string, untilMs: number, nowMs: number): Promise<void> {
    await this.coordination.acquireSlots(jobSlots(jobId), [id], Number.MAX_SAFE_INTEGER, untilMs - nowMs, nowMs);
  }

  /** Every DISPATCHED/RUNNING instance of job `jobId`, in one full read (a truncated one would admit past the limit). */
  private async holdersOf(jobId: string): Promise<SlotHolder[]> {
    for (let take = JOB_HOLDERS_PAGE; ; take *= 2) {
      const rows = await this.instances.findSlotHolders(this.config.namespace, take, [jobId]);
      if (rows.length < take) return rows;
    }
  }

  /**
   * Re-asserts `rows` (DISPATCHED/RUNNING, read from MySQL) as holders of their jobs' semaphores whatever the
   * limit, expiring their job's largest timeoutMs + LEASE_MS from `nowMs`; then frees the slots of rows that left
   * since the read, except those in their stop grace, which keep theirs until the grace ends.
   * Only the jobs of `rebuild` (job id → ttl ms) are marked known (the caller saw them unknown before its read,
   * so the read names every holder); the others are refreshed only where still known: a read taken before a loss
   * misses instances admitted between the two, and marking the semaphore known from it would admit past the limit.
   * @returns the job ids whose running holders exceed their limit.
   */
  async reassert(rows: SlotHolder[], nowMs: number, rebuild: Map<string, number> = new Map()): Promise<string[]> {
    const byJob = new Map<string, SlotHolder[]>([...rebuild.keys()].map((jobId) => [jobId, []]));
    for (const [jobId, group] of groupBy(rows.filter((r) => r.jobId), (r) => r.jobId as string)) byJob.set(jobId, group);
    // A rebuilt semaphore counts the instances in their stop grace: their handler may still run.
    const stopping = groupBy(await this.instances.findStopping([...rebuild.keys()], nowMs), (r) => r.jobId as string);
    const over: string[] = [];
    const asserted: SlotHolder[] = [];
    for (const [jobId, group] of byJob) {
      const ttl = group.length > 0 ? Math.max(...group.map((r) => r.timeoutMs)) + this.config.leaseMs : (rebuild.get(jobId) as number);
      const ids = group.map((r) => r.id);
      if (group.length > Math.max(0, ...group.map((r) => r.maxConcurrency))) over.push(jobId);
      if (rebuild.has(jobId)) {
        await this.coordination.seedSlots(jobSlots(jobId), [...ids, ...(stopping.get(jobId) ?? []).map((r) => r.id)], ttl, nowMs);
      } else if (!(await this.coordination.acquireSlots(jobSlots(jobId), ids, Number.MAX_SAFE_INTEGER, ttl, nowMs))) {
        continue; // not known: nothing written
      }
      asserted.push(...group);
    }
    const holding = await this.instances.idsInStatus(asserted.map((r) => r.id), MAY_HOLD_SLOT);
    // A row that left may be cancelled with its handler still stopping: it keeps its slot until its grace ends,
    // and not at all once its executor ended the grace (which it does before freeing the slot).
    const left = [...asserted.filter((r) => !holding.has(r.id)), ...[...stopping.values()].flat()];
    const jobIds = [...new Set(left.map((r) => r.jobId as string))];
    const still = new Map((await this.instances.findStopping(jobIds, nowMs)).map((r) => [r.id, r.leaseUntil as number]));
    for (const r of left) {
      const until = still.get(r.id);
      if (until === undefined) await this.free(r.jobId as string, r.id);
      else await this.holdUntil(r.jobId as string, r.id, until, nowMs);
    }
    return over;
  }
}
