import { Inject, Injectable, Logger } from '@nestjs/common';
import { CLOCK, type Clock, groupBy } from '../../common/index.js';
import { APP_CONFIG, type AppConfig } from '../../config/index.js';
import { COORDINATION, type CoordinationPort, type LiveNode } from '../coordination/index.js';
import { JobInstance, JobInstanceRepository, JobInstanceStatus, RoutingStrategy } from '../metadata/index.js';
import { JobSlotsService } from './job-slots.service.js';
import { NodeRegistryService } from './node-registry.service.js';
import { RoutingStrategies } from './routing/index.js';

/** What one dispatch call did, by instance count. */
export interface DispatchOutcome {
  dispatched: number;
  delayed: number;
  /** No live node advertises the handler; the rows stay PENDING and the reconciler tries again. */
  unroutable: number;
  /** Not PENDING any more (someone else dispatched, or cancelled): nothing done. */
  skipped: number;
  /** Over their job's maxConcurrency: moved to WAITING, released when a slot frees. */
  waiting: number;
}

/**
 * A scheduled fire whose row is committed and whose id still has to reach an executor at its fire time
 * (TriggerService staging): DISPATCHED rows carry their node, rows nobody could serve have `nodeId` null.
 */
export interface StagedFire {
  id: string;
  /** The row's app (JobInstance.appId): its id joins that app's list on the node (fair sharing, issue 9). */
  appId: string;
  /** Scheduled fire time, epoch ms. */
  fireTime: number;
  nodeId: string | null;
}

/**
 * The dispatch facade (DESIGN §6): routes PENDING instances to live executors. For each instance the
 * order is always **write MySQL, then Redis**: a conditional PENDING→DISPATCHED update that records the
 * node, then a push of the id onto that node's ready list. A crash between the two leaves a DISPATCHED
 * row that is in no queue; the reconciler finds it and pushes it again. Instances not yet due go to the
 * delay queue instead.
 */
@Injectable()
export class DispatchService {
  private readonly logger = new Logger(DispatchService.name);
  private readonly strategies: RoutingStrategies;

  constructor(
    private readonly instances: JobInstanceRepository,
    private readonly registry: NodeRegistryService,
    private readonly slots: JobSlotsService,
    @Inject(COORDINATION) private readonly coordination: CoordinationPort,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {
    this.strategies = new RoutingStrategies(coordination);
  }

  /** Dispatches instances by id (rows already committed). Safe to call twice for one id. */
  async dispatchIds(ids: string[]): Promise<DispatchOutcome> {
    return this.dispatchRows(await this.instances.findByIds(ids));
  }

  /** Dispatches already-loaded rows; rows not PENDING are skipped. */
  async dispatchRows(rows: JobInstance[]): Promise<DispatchOutcome> {
    const out: DispatchOutcome = { dispatched: 0, delayed: 0, unroutable: 0, skipped: 0, waiting: 0 };
    const now = this.clock.now();
    const ready: JobInstance[] = [];
    for (const row of rows) {
      if (row.status !== JobInstanceStatus.PENDING) {
        out.skipped++;
      } else if (row.dueAt > now) {
        await this.coordination.scheduleDelayed(row.id, row.dueAt);
        out.delayed++;
      } else {
        ready.push(row);
      }
    }
    const admitted = await this.slots.admit(ready, now);
    out.waiting = ready.length - admitted.length;
    for (const group of groupBy(admitted, routeGroup).values()) {
      const nodes = await this.route(group);
      if (!nodes) {
        out.unroutable += group.length;
        continue;
      }
      const won = await this.assign(group, nodes, now);
      out.dispatched += won;
      out.skipped += group.length - won;
    }
    return out;
  }

  /**
   * Routes rows that are about to be inserted (the staged fires of DESIGN §5, delta "staging"), so that
   * no write is left for their fire time: each PENDING row whose handler a live node advertises becomes
   * DISPATCHED to that node with `dispatchedAt` = its due time, in place. Its id reaches the node's queue
   * only through {@link release}; the reconciler counts a DISPATCHED row as lost only a pass after
   * `dispatchedAt`, so a staged row waits untouched. Rows of a handler nobody serves stay PENDING.
   */
  async preRoute(rows: JobInstance[]): Promise<void> {
    // A limited job's slot is taken at its fire time, by dispatchIds through release(), never ahead.
    const unlimited = rows.filter((r) => r.status === JobInstanceStatus.PENDING && !(r.maxConcurrency > 0));
    for (const group of groupBy(unlimited, routeGroup).values()) {
      const nodes = await this.route(group);
      if (!nodes) continue;
      group.forEach((row, i) => Object.assign(row, { status: JobInstanceStatus.DISPATCHED, nodeId: nodes[i].nodeId, dispatchedAt: row.dueAt }));
    }
  }

  /**
   * Hands staged fires to executors at their fire time: the ids of DISPATCHED rows go onto their nodes'
   * ready lists (one push per node, no database write), the rest through {@link dispatchIds}. A fire
   * routed to a node that is no longer live (stopped or silent since the row was staged) is taken back
   * (DISPATCHED→PENDING, guarded by that node) and routed again now, instead of waiting for the leader to
   * declare the node offline. Pushing an id whose row was unstaged or taken back meanwhile is harmless:
   * claims are conditional.
   */
  async release(fires: StagedFire[]): Promise<void> {
    const routed = fires.filter((f) => f.nodeId !== null);
    // A draining node (SIGTERM, label `draining`) still beats but hands back what it gets: route its fires again now.
    const serving = routed.length > 0 ? (await this.registry.liveNodes()).filter((n) => n.info.labels?.draining !== 'true') : [];
    const live = new Set(serving.map((n) => n.nodeId));
    const perNode = groupBy(routed.filter((f) => live.has(f.nodeId as string)), (f) => f.nodeId as string);
    const again = fires.filter((f) => f.nodeId === null).map((f) => f.id);
    await Promise.all([...perNode].map(([nodeId, group]) => this.coordination.pushReady(nodeId, group.map(({ id, appId }) => ({ id, appId })))));
    const now = this.clock.now();
    for (const f of routed.filter((x) => !live.has(x.nodeId as string))) {
      const back = await this.instances.transition(f.id, JobInstanceStatus.DISPATCHED, JobInstanceStatus.PENDING, { nodeId: f.nodeId as string },
        { nodeId: null, dispatchedAt: null }, now);
      if (back) again.push(f.id);
    }
    if (again.length > 0) await this.dispatchIds(again);
  }

  /**
   * The node of each row of `group` (one handler, one routing strategy) by the group's strategy, or null
   * (logged) when no live node advertises the handler or the strategy is unknown (the rows stay PENDING).
   */
  private async route(group: JobInstance[]): Promise<LiveNode[] | null> {
    const { handler, routingStrategy } = group[0];
    const serving = await this.registry.candidates(handler);
    const candidates = KEYED.has(routingStrategy) ? serving : this.registry.preferFresh(serving);
    if (candidates.length === 0) {
      // Standalone, the API refuses handlers this process lacks: the executor is only starting or stopping (debug).
      const message = `no live executor advertises handler '${handler}'; ${group.length} instance(s) stay PENDING`;
      if (this.config.shape === 'standalone') this.logger.debug(message);
      else this.logger.warn(message);
      return null;
    }
    try {
      return await this.strategies.for(routingStrategy).selectMany(group, candidates);
    } catch (err) {
      this.logger.error(`cannot route ${group.length} instance(s) of '${handler}' by ${routingStrategy}: ${(err as Error).message}`);
      return null;
    }
  }

  /**
   * PENDING→DISPATCHED for the rows of each node in one conditional UPDATE (DispatchService is the only
   * writer of this transition; see JobInstanceRepository.dispatchMany), then one push per node.
   */
  private async assign(rows: JobInstance[], nodes: LiveNode[], now: number): Promise<number> {
    const perNode = groupBy(rows.map((row, i) => ({ id: row.id, appId: row.appId, fireTime: row.fireTime, nodeId: nodes[i].nodeId })), (f) => f.nodeId);
    const won = (await Promise.all([...perNode].map(async ([nodeId, fires]) => {
      const ids = await this.instances.dispatchMany(fires.map((f) => f.id), nodeId, now);
      return fires.filter((f) => ids.has(f.id));
    }))).flat();
    const wonIds = new Set(won.map((f) => f.id));
    const limited = rows.filter((r) => r.maxConcurrency > 0 && r.jobId);
    await this.slots.freeLost(limited.filter((r) => !wonIds.has(r.id)));
    const withdrawn = await this.slots.confirm(limited.filter((r) => wonIds.has(r.id)), now);
    await this.release(won.filter((f) => !withdrawn.has(f.id)));
    return won.length - withdrawn.size;
  }
}

/** Strategies whose placement follows a key: their node set must not change with a late heartbeat. */
const KEYED: ReadonlySet<RoutingStrategy> = new Set([RoutingStrategy.CONSISTENT_HASH, RoutingStrategy.SHARDING_BROADCAST]);

/** Rows that one strategy call can route together: same handler, same routing strategy. */
function routeGroup(row: JobInstance): string {
  return `${row.routingStrategy}\u0000${row.handler}`;
}
