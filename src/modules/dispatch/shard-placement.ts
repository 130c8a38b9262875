import { Inject, Injectable, Logger } from '@nestjs/common';
import { CLOCK, type Clock, groupBy } from '../../common/index.js';
import type { LiveNode } from '../coordination/index.js';
import {
  type JobInstance,
  RoutingStrategy,
  FireLedger,
  type ShardAssignment,
  ShardAssignmentRepository,
  type Tx,
  UnitOfWork,
} from '../metadata/index.js';
import { MetricsService, type ShardMoveKindLabel } from '../observability/index.js';
import { RoutingStrategies, shardOrder } from './routing/index.js';

/** Where a job's shards run for one routing call: owner per shard index, and how many still wait for a move. */
export interface ShardOwners {
  owners: Map<number, string>;
  pending: number;
}

/** One change of a shard's owner, logged and counted once its unit of work ends. */
interface Move {
  shardIndex: number;
  from: string;
  to: string;
  kind: ShardMoveKindLabel;
}

/**
 * Resharding by migration (docs/dispatch.md "Shard placement"): job_shard_assignment holds each shard's owner, the
 * rendezvous deal ({@link shardOrder}) its desired node. A shard whose owner left goes to its desired node at once
 * (failover); one whose owner is live but not desired is MARKED and moved at a fire time (`mayMove`), at most one
 * shard per fire, only when no unfinished instance of that shard is on its owner. Runs under the job row's lock.
 */
@Injectable()
export class ShardPlacement {
  private readonly logger = new Logger(ShardPlacement.name);

  constructor(
    private readonly strategies: RoutingStrategies,
    private readonly uow: UnitOfWork,
    private readonly assignments: ShardAssignmentRepository,
    private readonly fires: FireLedger,
    private readonly metrics: MetricsService,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  /**
   * The node of each of `rows` (one routing group of `strategy`) among `candidates` (non-empty): the strategy's pick;
   * SHARDING_BROADCAST by {@link route}. @throws ValidationError for an unknown strategy, a database error
   */
  async select(
    strategy: RoutingStrategy,
    rows: JobInstance[],
    candidates: LiveNode[],
    atFire: boolean,
  ): Promise<Array<LiveNode | undefined>> {
    const dealt = await this.strategies.for(strategy).selectMany(rows, candidates);
    return strategy === RoutingStrategy.SHARDING_BROADCAST ? this.route(rows, candidates, dealt, atFire) : dealt;
  }

  /**
   * The nodes of `rows` (one routing group) for SHARDING_BROADCAST, over `candidates`, as `dealt` (the pure deal)
   * for rows of no job; per job by {@link owners}. `undefined`: routed ahead (`mayMove` false) while the job has a
   * shard marked, left PENDING so it is routed at its fire time. A job whose placement fails (logged) keeps `dealt`
   * at fire time and stays PENDING ahead: a bad stored row never stops the loop.
   */
  private async route(
    rows: JobInstance[],
    candidates: LiveNode[],
    dealt: LiveNode[],
    mayMove: boolean,
  ): Promise<Array<LiveNode | undefined>> {
    // A draining node advertises no handler, so it is no candidate: its shards fail over as if it had left.
    const byId = new Map(candidates.map((n) => [n.nodeId, n]));
    const out: Array<LiveNode | undefined> = [...dealt];
    const index = new Map(rows.map((r, i) => [r, i]));
    for (const [jobId, jobRows] of groupBy(
      rows.filter((r) => r.jobId),
      (r) => r.jobId as string,
    )) {
      const newest = jobRows.reduce((a, b) => (b.fireTime > a.fireTime ? b : a));
      let placed: ShardOwners | null = null;
      try {
        placed = await this.owners(jobId, newest.shardTotal, newest.fireTime, [...byId.keys()], mayMove);
      } catch (err) {
        this.logger.error(`cannot place the shards of job ${jobId}: ${(err as Error).message}; dealt instead`);
      }
      for (const r of jobRows) {
        const i = index.get(r) as number;
        const owner = placed?.owners.get(r.shardIndex);
        if (!mayMove && (placed === null || placed.pending > 0)) out[i] = undefined;
        else if (owner !== undefined && byId.has(owner)) out[i] = byId.get(owner);
      }
    }
    return out;
  }

  /**
   * The owners of shards 0..`shardTotal`-1 of job `jobId` for its fire at `fireTime` (ms) over the live nodes
   * `nodeIds` (non-empty), stored first: new shards placed, shards from `shardTotal` up dropped, the left nodes'
   * shards failed over, the rest marked or moved. `mayMove` false (routing ahead): no migration now.
   * @throws a database error (route() logs it and falls back)
   */
  async owners(
    jobId: string,
    shardTotal: number,
    fireTime: number,
    nodeIds: string[],
    mayMove: boolean,
  ): Promise<ShardOwners> {
    const moves: Move[] = [];
    const out = await this.uow.run(
      (tx) => {
        moves.length = 0;
        return this.place(tx, { jobId, shardTotal, fireTime, nodeIds, mayMove }, moves);
      },
      { lockRetries: 3 },
    );
    for (const m of moves) {
      this.metrics.shardMoves.inc({ kind: m.kind });
      this.logger.log(
        `shard ${m.shardIndex}/${shardTotal} of job ${jobId} moved ${m.from} -> ${m.to} (${m.kind}; ` +
          `${out.pending} shard(s) still marked for resharding)`,
      );
    }
    return out;
  }

  private async place(
    tx: Tx,
    job: { jobId: string; shardTotal: number; fireTime: number; nodeIds: string[]; mayMove: boolean },
    moves: Move[],
  ): Promise<ShardOwners> {
    const { jobId, shardTotal, fireTime, mayMove } = job;
    const now = this.clock.now();
    await this.assignments.lockJob(tx, jobId);
    const stored = await this.assignments.ofJob(tx, jobId);
    if (stored.some((r) => r.shardIndex >= shardTotal)) await this.assignments.dropFrom(tx, jobId, shardTotal);
    const rows = new Map(stored.filter((r) => r.shardIndex < shardTotal).map((r) => [r.shardIndex, r]));
    const wasMarked = [...rows.values()].some((r) => r.state === 'MARKED');
    const order = shardOrder(jobId, job.nodeIds);
    const live = new Set(job.nodeIds);
    const changed = new Set<ShardAssignment>();
    for (let i = 0; i < shardTotal; i++) {
      const want = order[i % order.length];
      const r = rows.get(i);
      if (!r) {
        const placed: ShardAssignment = {
          shardIndex: i,
          nodeId: want,
          targetNodeId: null,
          state: 'SETTLED',
          movedAt: null,
          movedFire: null,
        };
        rows.set(i, placed);
        changed.add(placed);
      } else if (!live.has(r.nodeId)) {
        moves.push({ shardIndex: i, from: r.nodeId, to: want, kind: 'failover' });
        Object.assign(r, { nodeId: want, targetNodeId: null, state: 'SETTLED', movedAt: now });
        changed.add(r);
      } else if (r.nodeId === want) {
        if (r.state === 'MARKED') changed.add(Object.assign(r, { state: 'SETTLED', targetNodeId: null }));
      } else if (r.state !== 'MARKED' || r.targetNodeId !== want) {
        changed.add(Object.assign(r, { state: 'MARKED', targetNodeId: want }));
      }
    }
    const all = [...rows.values()];
    const marked = all.filter((r) => r.state === 'MARKED');
    // A new reshard begins: the count of moved shards starts again.
    if (!wasMarked && marked.length > 0)
      for (const r of all.filter((x) => x.state === 'MOVED')) changed.add(Object.assign(r, { state: 'SETTLED' }));
    const lastMove = Math.max(-Infinity, ...all.map((r) => r.movedFire ?? -Infinity));
    if (mayMove && marked.length > 0 && lastMove < fireTime) {
      const next = await this.nextFree(tx, jobId, marked, now);
      if (next) {
        moves.push({
          shardIndex: next.shardIndex,
          from: next.nodeId,
          to: next.targetNodeId as string,
          kind: 'migration',
        });
        Object.assign(next, {
          nodeId: next.targetNodeId,
          targetNodeId: null,
          state: 'MOVED',
          movedAt: now,
          movedFire: fireTime,
        });
        changed.add(next);
      }
    }
    if (changed.size > 0) await this.assignments.save(tx, jobId, [...changed], now);
    return {
      owners: new Map(all.map((r) => [r.shardIndex, r.nodeId])),
      pending: all.filter((r) => r.state === 'MARKED').length,
    };
  }

  /** The lowest marked shard with no unfinished instance on its owner (its run there ended), or undefined. */
  private async nextFree(
    tx: Tx,
    jobId: string,
    marked: ShardAssignment[],
    now: number,
  ): Promise<ShardAssignment | undefined> {
    const unfinished = (await this.fires.unfinishedOfJobs(tx, [jobId], now)).get(jobId) ?? [];
    const busy = new Set(unfinished.filter((r) => r.nodeId !== null).map((r) => `${r.shardIndex}\u0000${r.nodeId}`));
    return marked.find((r) => !busy.has(`${r.shardIndex}\u0000${r.nodeId}`));
  }
}
