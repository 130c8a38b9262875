import { Inject, Injectable, Logger } from '@nestjs/common';
import { groupBy } from '../../common/index.js';
import { APP_CONFIG, type AppConfig } from '../../config/index.js';
import { COORDINATION, type CoordinationPort, jobSlots } from '../coordination/index.js';
import { FINAL_STATUSES, JobInstance, JobInstanceRepository, JobInstanceStatus } from '../metadata/index.js';

/** A DISPATCHED or RUNNING instance of a limited job: it holds one slot of its job's semaphore. */
export type SlotHolder = Pick<JobInstance, 'id' | 'jobId' | 'status' | 'maxConcurrency' | 'timeoutMs'>;

/** Rows that may hold a slot: dispatch takes it while the row is still PENDING (a retry may be re-admitted meanwhile). */
const MAY_HOLD_SLOT = [JobInstanceStatus.PENDING, JobInstanceStatus.DISPATCHED, JobInstanceStatus.RUNNING];
/** Rows that never hold a slot again (their slot was freed when they ended). */
const ENDED = [...FINAL_STATUSES];
/** Holders of one job read at first to rebuild its semaphore (doubled while a read comes back full: limits go up to 10,000). */
const JOB_HOLDERS_PAGE = 5000;
/** Rebuild-then-acquire rounds before the rows are left to wait (each round lost only to another flush). */
const ACQUIRE_ROUNDS = 3;

/**
 * Per-job maxConcurrency slots (DESIGN §7 "Limits") over the coordination port's semaphores, with MySQL as
 * the source of truth. A semaphore the port does not know — never built, expired with its holders, or lost
 * with Redis (FLUSHALL, failover to an empty replica) — admits nobody until it is rebuilt from the job's
 * DISPATCHED and RUNNING rows, so a Redis loss never lets dispatch admit past a job's limit; the leader's
 * reconciler also re-asserts every running holder each pass in the semaphores Redis knows (expiry refresh
 * for long runs). Dispatch calls {@link admit} before routing, {@link confirm} and {@link freeLost} after
 * its DISPATCHED write and before its push.
 */
@Injectable()
export class JobSlotsService {
  private readonly logger = new Logger(JobSlotsService.name);

  constructor(
    private readonly instances: JobInstanceRepository,
    @Inject(COORDINATION) private readonly coordination: CoordinationPort,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /**
   * Admission of due PENDING rows (dispatch's first step): rows of a limited job take a slot of the job's
   * semaphore (rebuilt from MySQL first when Redis does not know it; holder = instance id, held until the
   * instance leaves DISPATCHED/RUNNING, expiring after its timeout plus LEASE_MS as a backstop); a row that
   * gets none goes PENDING→WAITING, and is released when an instance of the job ends (never dropped).
   * Rows without a limit pass untouched. @returns the rows that may be dispatched now.
   */
  async admit(rows: JobInstance[], now: number): Promise<JobInstance[]> {
    const limited = rows.filter((r) => r.maxConcurrency > 0 && r.jobId);
    if (limited.length === 0) return rows;
    const refused = new Set<JobInstance>();
    for (const [jobId, group] of groupBy(limited, (r) => r.jobId as string)) {
      const ok = await this.acquireFor(jobId, group, now);
      for (const row of group) {
        if (ok.has(row.id)) continue;
        refused.add(row);
        await this.toWaiting(row, now);
      }
    }
    return rows.filter((r) => !refused.has(r));
  }

  /**
   * Limited rows just written DISPATCHED (not pushed yet) must still hold their slot. Redis may have lost the
   * semaphore between admission and that write, and another dispatcher may have rebuilt it from a read that
   * saw these rows still PENDING and admitted others in their place. A row whose slot is gone is taken
   * again if the job has room, else it goes back (DISPATCHED→PENDING→WAITING) before anyone runs it.
   * One semaphore call per job in the usual case, where every row still holds.
   * @returns the ids withdrawn (now WAITING, or taken by someone else meanwhile).
   */
  async confirm(won: JobInstance[], now: number): Promise<Set<string>> {
    const withdrawn = new Set<string>();
    for (const [jobId, group] of groupBy(won.filter((r) => r.maxConcurrency > 0 && r.jobId), (r) => r.jobId as string)) {
      const ok = await this.acquireFor(jobId, group, now);
      for (const row of group.filter((r) => !ok.has(r.id))) {
        withdrawn.add(row.id);
        const back = await this.instances.transition(row.id, JobInstanceStatus.DISPATCHED, JobInstanceStatus.PENDING, { attempt: row.attempt },
          { nodeId: null, dispatchedAt: null }, now);
        if (back) await this.toWaiting(row, now);
      }
    }
    return withdrawn;
  }

  /**
   * Admitted limited rows whose DISPATCHED write lost: another dispatcher moved them first. One that went
   * WAITING (refused there) or ended holds the slot this admission took for nobody: give it back, or it
   * would keep the job's waiting instances out until it expires. One that went DISPATCHED there shares
   * this holder id (the instance's) and keeps it.
   */
  async freeLost(lost: JobInstance[]): Promise<void> {
    if (lost.length === 0) return;
    const idle = await this.instances.idsInStatus(lost.map((r) => r.id), [JobInstanceStatus.WAITING, ...FINAL_STATUSES]);
    for (const row of lost.filter((r) => idle.has(r.id))) await this.coordination.releaseSlot(jobSlots(row.jobId as string), row.id);
  }

  /**
   * {@link acquire} for rows of one job: expiring their largest timeoutMs + LEASE_MS from `now`, under the
   * smallest of their limits (rows made before and after a maxConcurrency change may meet in one batch).
   */
  private acquireFor(jobId: string, group: JobInstance[], now: number): Promise<Set<string>> {
    const ttl = Math.max(...group.map((r) => r.timeoutMs)) + this.config.leaseMs;
    return this.acquire(jobId, group.map((r) => r.id), Math.min(...group.map((r) => r.maxConcurrency)), ttl, now);
  }

  /** PENDING→WAITING for a row refused a maxConcurrency slot (released when an instance of the job ends). */
  private async toWaiting(row: JobInstance, now: number): Promise<void> {
    await this.instances.transition(row.id, JobInstanceStatus.PENDING, JobInstanceStatus.WAITING, { attempt: row.attempt },
      { error: `MAX_CONCURRENCY: ${row.maxConcurrency} instance(s) of the job already running; waits for a slot` }, now);
  }

  /**
   * Takes slots of job `jobId`'s semaphore (at most `limit`) for `holders` (instance ids), in order, expiring
   * at `nowMs + ttlMs`. When the semaphore is not known it is first rebuilt from MySQL ({@link seed}), from a
   * read taken after this saw it unknown.
   * Admitted rows that have ended meanwhile (the caller's read was stale) give their slot back at once.
   * @returns the admitted ids (ended ones included: their dispatch finds them not PENDING); empty (all wait)
   *   when the semaphore was lost again in every round.
   */
  async acquire(jobId: string, holders: string[], limit: number, ttlMs: number, nowMs: number): Promise<Set<string>> {
    for (let round = 0; round < ACQUIRE_ROUNDS; round++) {
      const admitted = await this.coordination.acquireSlots(jobSlots(jobId), holders, limit, ttlMs, nowMs);
      if (admitted) {
        // A row read PENDING may have ended (cancelled, run by another dispatcher) and freed its slot before this
        // took it: nothing would free it again, and it would keep new instances waiting until it expires.
        const ended = admitted.length > 0 ? await this.instances.idsInStatus(admitted, ENDED) : new Set<string>();
        for (const id of ended) await this.coordination.releaseSlot(jobSlots(jobId), id);
        return new Set(admitted);
      }
      await this.seed(await this.holdersOf(jobId), nowMs, new Map([[jobId, ttlMs]]));
    }
    this.logger.warn(`job ${jobId}: its maxConcurrency semaphore was lost again ${ACQUIRE_ROUNDS} times while being rebuilt; ` +
      `${holders.length} instance(s) wait for the next release or reconcile pass`);
    return new Set();
  }

  /**
   * Every DISPATCHED/RUNNING instance of job `jobId`, in one read: a semaphore marked known from a truncated
   * read would miss running holders and admit past the limit, so a full read is taken again, twice as large.
   */
  private async holdersOf(jobId: string): Promise<SlotHolder[]> {
    for (let take = JOB_HOLDERS_PAGE; ; take *= 2) {
      const rows = await this.instances.findSlotHolders(this.config.namespace, take, [jobId]);
      if (rows.length < take) return rows;
    }
  }

  /**
   * Re-asserts the rows (DISPATCHED/RUNNING instances, read from MySQL) as holders of their jobs' semaphores,
   * whatever the limit (they run), expiring their job's largest timeoutMs + LEASE_MS from `nowMs`; then the
   * slots of rows that left DISPATCHED/RUNNING since the read are given back (an executor writes MySQL before
   * it frees a slot, so its release may have come before this).
   * Only the jobs of `rebuild` (job id → ttl ms, for a job without rows) have their semaphore marked known:
   * the caller saw it unknown before its read, so the read names every holder admitted before the loss.
   * The other jobs are only refreshed where their semaphore is still known: a read taken before a loss does
   * not name an instance admitted between the read and the loss, and marking the semaphore known from it
   * would let dispatch admit past the limit (left unknown, dispatch rebuilds it from a read of its own).
   * @returns the job ids whose running holders exceed their limit (the limit was broken before the rebuild).
   */
  async seed(rows: SlotHolder[], nowMs: number, rebuild: Map<string, number> = new Map()): Promise<string[]> {
    const byJob = new Map<string, SlotHolder[]>([...rebuild.keys()].map((jobId) => [jobId, []]));
    for (const [jobId, group] of groupBy(rows.filter((r) => r.jobId), (r) => r.jobId as string)) byJob.set(jobId, group);
    // A rebuilt semaphore also counts the cancelled instances whose handler is still stopping (DESIGN §7): the
    // canceller left their slot for their executor to free once the handler stopped. Rebuilt without them, a
    // semaphore lost with Redis in that moment let a new fire start beside the stopping handler.
    const stopping = groupBy(await this.instances.findStopping([...rebuild.keys()], nowMs), (r) => r.jobId as string);
    const over: string[] = [];
    const asserted: SlotHolder[] = [];
    for (const [jobId, group] of byJob) {
      const ttl = group.length > 0 ? Math.max(...group.map((r) => r.timeoutMs)) + this.config.leaseMs : (rebuild.get(jobId) as number);
      const ids = group.map((r) => r.id);
      if (group.length > Math.max(0, ...group.map((r) => r.maxConcurrency))) over.push(jobId);
      if (rebuild.has(jobId)) await this.coordination.seedSlots(jobSlots(jobId), [...ids, ...(stopping.get(jobId) ?? []).map((r) => r.id)], ttl, nowMs);
      // Every row is admitted (no limit) when the semaphore is known; null (nothing written) when it is not.
      else if (!(await this.coordination.acquireSlots(jobSlots(jobId), ids, Number.MAX_SAFE_INTEGER, ttl, nowMs))) continue;
      asserted.push(...group);
    }
    const holding = await this.instances.idsInStatus(asserted.map((r) => r.id), MAY_HOLD_SLOT);
    // Rows that left DISPATCHED/RUNNING since the read give their slot back — except one cancelled while RUNNING
    // whose handler may still be stopping (the reconciler's pass read it RUNNING just before the cancel: released
    // here, its slot went to a new instance beside the stopping handler). It, and every stopping holder of a rebuilt
    // semaphore, keeps its slot only until its grace ends (cut back from the seed's ttl), and not at all once its
    // executor ended the grace: the executor clears it before it frees the slot, so one seen cleared here may have
    // freed it before this seed put it back.
    const left = [...asserted.filter((r) => !holding.has(r.id)), ...[...stopping.values()].flat()];
    const jobIds = [...new Set(left.map((r) => r.jobId as string))];
    const still = new Map((await this.instances.findStopping(jobIds, nowMs)).map((r) => [r.id, r.leaseUntil as number]));
    for (const r of left) {
      const until = still.get(r.id);
      if (until === undefined) await this.coordination.releaseSlot(jobSlots(r.jobId as string), r.id);
      else await this.coordination.acquireSlots(jobSlots(r.jobId as string), [r.id], Number.MAX_SAFE_INTEGER, until - nowMs, nowMs);
    }
    return over;
  }
}
