import { Inject, Injectable, Logger } from '@nestjs/common';
import { CLOCK, type Clock, groupBy } from '../../common/index.js';
import { APP_CONFIG, type AppConfig } from '../../config/index.js';
import { DelayFeed, type LiveNode, NODE_QUEUES, type NodeQueuePort } from '../coordination/index.js';
import type { HandOff } from '../execution/index.js';
import {
  DispatchLedger,
  InstanceReads,
  InstanceTransitions,
  JobInstance,
  JobInstanceStatus,
  RoutingStrategy,
} from '../metadata/index.js';
import { Admission } from './admission/index.js';
import { NodeRegistryService } from './node-registry.service.js';
import { rankedItem } from './ready-rank.js';
import { ShardPlacement } from './shard-placement.js';

/** How often the leader pumps the delay queue (docs/dispatch.md "Delayed tasks"). */
export const DELAY_PUMP_MS = 200;

/** What one dispatch call did, by instance count. */
export interface DispatchOutcome {
  dispatched: number;
  delayed: number;
  /** No node takes them (no live node advertises the handler, or the client is disabled): they stay PENDING. */
  unroutable: number;
  /** Not PENDING any more (someone else dispatched, or cancelled): nothing done. */
  skipped: number;
  /** Over their job's maxConcurrency: moved to WAITING, promoted when a slot frees. */
  waiting: number;
}

/** A committed row the leader releases at its time ({@link DispatchService.deliver}): a fire, or a delayed row. */
export interface Release {
  id: string;
  /** The row's app: its id joins that app's list on the node (fair sharing). */
  appId: string;
  /** When it is released, epoch ms: a fire's scheduled time, a delayed row's due time. */
  at: number;
  priority: number;
  /** Its node when routed ahead (the release is the push alone); null: dispatched at its time. */
  nodeId: string | null;
}

/**
 * The dispatch facade (docs/dispatch.md): routes admitted PENDING instances to live executors, always **MySQL,
 * then Redis**: a conditional PENDING→DISPATCHED write, then a push onto the node's ready list (a crash between
 * leaves a row the reconciler pushes again). Instances not yet due go to the delay queue.
 */
@Injectable()
export class DispatchService implements HandOff {
  private readonly logger = new Logger(DispatchService.name);

  constructor(
    private readonly reads: InstanceReads,
    private readonly ledger: DispatchLedger,
    private readonly transitions: InstanceTransitions,
    private readonly registry: NodeRegistryService,
    private readonly admission: Admission,
    private readonly placement: ShardPlacement,
    @Inject(NODE_QUEUES) private readonly queues: NodeQueuePort,
    private readonly delays: DelayFeed,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  /** Dispatches instances by id (rows already committed). Safe to call twice for one id. */
  async dispatchIds(ids: string[]): Promise<DispatchOutcome> {
    return this.dispatchRows(await this.reads.findByIds(ids));
  }

  /** {@link HandOff}: a promoted instance is dispatched at once. */
  handOff(promoted: JobInstance): Promise<DispatchOutcome> {
    return this.dispatchRows([promoted]);
  }

  /** Dispatches already-loaded rows; rows not PENDING are skipped. */
  async dispatchRows(rows: JobInstance[]): Promise<DispatchOutcome> {
    const out: DispatchOutcome = { dispatched: 0, delayed: 0, unroutable: 0, skipped: 0, waiting: 0 };
    const now = this.clock.now();
    const ready: JobInstance[] = [];
    let soonest = Infinity;
    for (const row of rows) {
      if (row.status !== JobInstanceStatus.PENDING) {
        out.skipped++;
      } else if (row.dueAt > now) {
        await this.delays.schedule(row.id, row.dueAt);
        soonest = Math.min(soonest, row.dueAt);
        out.delayed++;
      } else {
        ready.push(row);
      }
    }
    // The leader's pump looks one stage lead ahead every DELAY_PUMP_MS: a row due sooner than that could be late.
    if (soonest < now + this.config.triggerStageLeadMs + DELAY_PUMP_MS) this.delays.wakePump();
    // A disabled client's rows stay PENDING without a slot until it is enabled (then the reconciler routes them).
    const heldApps = ready.length > 0 ? await this.registry.heldApps(ready.map((r) => r.appId)) : new Set<string>();
    const held = ready.filter((r) => heldApps.has(r.appId));
    if (held.length > 0) await this.keepPending(held, out);
    const runnable = held.length > 0 ? ready.filter((r) => !heldApps.has(r.appId)) : ready;
    const admitted = await this.admission.admit(runnable, now);
    out.waiting = runnable.length - admitted.length;
    for (const group of groupBy(admitted, routeGroup).values()) {
      const nodes = await this.route(group, true);
      if (!nodes) {
        await this.keepPending(group, out);
        continue;
      }
      const won = await this.assign(group, nodes as LiveNode[], now);
      out.dispatched += won;
      out.skipped += group.length - won;
    }
    return out;
  }

  /** Rows no node takes now stay PENDING (the reconciler tries again), counted unroutable. */
  private async keepPending(rows: JobInstance[], out: DispatchOutcome): Promise<void> {
    out.unroutable += rows.length;
    // Their release happened, they wait for an executor: a staged one is staged no more (docs/state-machine.md).
    const staged = rows.filter((r) => r.staged !== null).map((r) => r.id);
    if (staged.length > 0) await this.ledger.clearStaged(staged);
  }

  /**
   * Routes rows about to be written (a firing page's fires, API tasks due now, delayed rows the pump stages) in
   * place: PENDING → DISPATCHED to a live node, `dispatchedAt` = the due time (the reconciler's "lost" counts from
   * there), so no write is left for that time; only {@link deliver} pushes their ids.
   */
  async preRoute(rows: JobInstance[]): Promise<void> {
    // A limited job's slot is admitted at the fire time, never ahead.
    const unlimited = rows.filter((r) => r.status === JobInstanceStatus.PENDING && !(r.maxConcurrency > 0));
    // A disabled client's rows stay PENDING: dispatch holds them at their time (dispatchRows).
    const held = unlimited.length > 0 ? await this.registry.heldApps(unlimited.map((r) => r.appId)) : new Set<string>();
    const routable = held.size > 0 ? unlimited.filter((r) => !held.has(r.appId)) : unlimited;
    for (const group of groupBy(routable, routeGroup).values()) {
      const nodes = await this.route(group, false);
      if (!nodes) continue;
      group.forEach((row, i) => {
        const node = nodes[i];
        if (node)
          Object.assign(row, { status: JobInstanceStatus.DISPATCHED, nodeId: node.nodeId, dispatchedAt: row.dueAt });
      });
    }
  }

  /**
   * Stages delayed rows taken from the delay queue (docs/dispatch.md "Delayed tasks"): those still ahead are routed
   * now and written DISPATCHED, staged, with `dispatchedAt` = their due time ({@link DispatchLedger.stageMany}), so
   * only the push is left for then; rows due already are dispatched at once. @returns what the caller delivers at
   * each due time ({@link deliver}): routed rows with their node, limited or unroutable rows with none.
   */
  async stageDelayed(rows: JobInstance[]): Promise<Release[]> {
    const now = this.clock.now();
    const pending = rows.filter((r) => r.status === JobInstanceStatus.PENDING);
    const due = pending.filter((r) => r.dueAt <= now);
    const ahead = pending.filter((r) => r.dueAt > now);
    if (due.length > 0) await this.dispatchRows(due);
    await this.preRoute(ahead);
    const releases: Release[] = [];
    const routed = groupBy(
      ahead.filter((r) => r.status === JobInstanceStatus.DISPATCHED),
      (r) => r.nodeId as string,
    );
    for (const [nodeId, group] of routed) {
      const won = await this.ledger.stageMany(
        group.map((r) => r.id),
        nodeId,
        now,
      );
      for (const r of group) if (won.has(r.id)) releases.push(releaseAtDue(r, nodeId));
    }
    for (const r of ahead) if (r.status === JobInstanceStatus.PENDING) releases.push(releaseAtDue(r, null));
    return releases;
  }

  /**
   * Delivers releases at their time: routed ids onto their nodes' ready lists (no write), the rest through
   * {@link dispatchIds}; one routed to a node no longer live or draining is taken back and routed again now.
   */
  async deliver(fires: Release[]): Promise<void> {
    const routed = fires.filter((f) => f.nodeId !== null);
    // A draining node (SIGTERM) still beats but hands back what it gets.
    const nodes = routed.length > 0 ? await this.registry.liveNodes() : [];
    const live = new Set(nodes.filter((n) => n.info.labels?.draining !== 'true').map((n) => n.nodeId));
    // A fire routed ahead for an app whose client was disabled since goes back to PENDING and waits there.
    const held = routed.length > 0 ? await this.registry.heldApps(routed.map((f) => f.appId)) : new Set<string>();
    const pushable = (f: Release) => live.has(f.nodeId as string) && !held.has(f.appId);
    const perNode = groupBy(routed.filter(pushable), (f) => f.nodeId as string);
    const again = fires.filter((f) => f.nodeId === null).map((f) => f.id);
    await Promise.all(
      [...perNode].map(([nodeId, group]) =>
        this.queues.pushReady(
          nodeId,
          group.map((f) => rankedItem(f, f.at, this.config.priorityAgingMs)),
        ),
      ),
    );
    const now = this.clock.now();
    for (const f of routed.filter((x) => !pushable(x))) {
      const back = await this.transitions.transition(
        f.id,
        JobInstanceStatus.DISPATCHED,
        JobInstanceStatus.PENDING,
        { nodeId: f.nodeId as string },
        { nodeId: null, dispatchedAt: null },
        now,
      );
      if (back) again.push(f.id);
    }
    if (again.length > 0) await this.dispatchIds(again);
  }

  /**
   * The node of each row of `group` (one handler and strategy), or null (logged: the rows stay PENDING). A sharded
   * job's rows follow its stored placement (ShardPlacement): `atFire` false (routing ahead) never moves a shard and
   * leaves a row `undefined` (PENDING) while its job has a shard marked for resharding; `atFire` true names a node
   * for every row.
   */
  private async route(group: JobInstance[], atFire: boolean): Promise<Array<LiveNode | undefined> | null> {
    const { handler, routingStrategy, appId } = group[0];
    const serving = await this.registry.candidates(handler, appId);
    const candidates = KEYED.has(routingStrategy) ? serving : this.registry.preferFresh(serving);
    if (candidates.length === 0) {
      // Standalone, the API refuses handlers this process lacks: the executor is only starting or stopping (debug).
      const message = `no live executor advertises handler '${handler}'; ${group.length} instance(s) stay PENDING`;
      if (this.config.shape === 'standalone') this.logger.debug(message);
      else this.logger.warn(message);
      return null;
    }
    try {
      return await this.placement.select(routingStrategy, group, candidates, atFire);
    } catch (err) {
      const reason = (err as Error).message;
      this.logger.error(`cannot route ${group.length} instance(s) of '${handler}' by ${routingStrategy}: ${reason}`);
      return null;
    }
  }

  /** PENDING→DISPATCHED per node in one conditional UPDATE (the only writer), admission's confirm, then the push. */
  private async assign(rows: JobInstance[], nodes: LiveNode[], now: number): Promise<number> {
    const perNode = groupBy(
      rows.map((row, i) => releaseAtDue(row, nodes[i].nodeId)),
      (f) => f.nodeId as string,
    );
    const won = (
      await Promise.all(
        [...perNode].map(async ([nodeId, fires]) => {
          const ids = await this.ledger.dispatchMany(
            fires.map((f) => f.id),
            nodeId,
            now,
          );
          return fires.filter((f) => ids.has(f.id));
        }),
      )
    ).flat();
    const wonIds = new Set(won.map((f) => f.id));
    const limited = rows.filter((r) => r.maxConcurrency > 0 && r.jobId);
    await this.admission.freeLost(limited.filter((r) => !wonIds.has(r.id)));
    const withdrawn = await this.admission.confirm(
      limited.filter((r) => wonIds.has(r.id)),
      now,
    );
    await this.deliver(won.filter((f) => !withdrawn.has(f.id)));
    return won.length - withdrawn.size;
  }
}

/** Strategies whose placement follows a key: their node set must not change with a late heartbeat. */
const KEYED: ReadonlySet<RoutingStrategy> = new Set([
  RoutingStrategy.CONSISTENT_HASH,
  RoutingStrategy.SHARDING_BROADCAST,
]);

/** A delayed row as the leader holds it until its due time. */
function releaseAtDue(row: JobInstance, nodeId: string | null): Release {
  return { id: row.id, appId: row.appId, at: row.dueAt, priority: row.priority, nodeId };
}

/**
 * Rows that one strategy call can route together: same handler, same routing strategy, same app (an app worker takes
 * only its own app's rows, so the candidates differ by app).
 */
function routeGroup(row: JobInstance): string {
  return `${row.routingStrategy}\u0000${row.handler}\u0000${row.appId}`;
}
