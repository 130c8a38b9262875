import { Inject, Injectable, Logger } from '@nestjs/common';
import { CLOCK, type Clock } from '../../common/index.js';
import { COORDINATION, type CoordinationPort, type LiveNode } from '../coordination/coordination.port.js';
import { JobInstance, JobInstanceRepository, JobInstanceStatus } from '../metadata/index.js';
import { NodeRegistryService } from './node-registry.service.js';
import { RoundRobinStrategy } from './routing/round-robin.strategy.js';

/** What one dispatch call did, by instance count. */
export interface DispatchOutcome {
  dispatched: number;
  delayed: number;
  /** No live node advertises the handler; the rows stay PENDING and the reconciler tries again. */
  unroutable: number;
  /** Not PENDING any more (someone else dispatched, or cancelled): nothing done. */
  skipped: number;
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
  private readonly roundRobin: RoundRobinStrategy;

  constructor(
    private readonly instances: JobInstanceRepository,
    private readonly registry: NodeRegistryService,
    @Inject(COORDINATION) private readonly coordination: CoordinationPort,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {
    this.roundRobin = new RoundRobinStrategy(coordination);
  }

  /** Dispatches instances by id (rows already committed). Safe to call twice for one id. */
  async dispatchIds(ids: string[]): Promise<DispatchOutcome> {
    return this.dispatchRows(await this.instances.findByIds(ids));
  }

  /** Dispatches already-loaded rows; rows not PENDING are skipped. */
  async dispatchRows(rows: JobInstance[]): Promise<DispatchOutcome> {
    const out: DispatchOutcome = { dispatched: 0, delayed: 0, unroutable: 0, skipped: 0 };
    const now = this.clock.now();
    const byHandler = new Map<string, JobInstance[]>();
    for (const row of rows) {
      if (row.status !== JobInstanceStatus.PENDING) {
        out.skipped++;
      } else if (row.dueAt > now) {
        await this.coordination.scheduleDelayed(row.id, row.dueAt);
        out.delayed++;
      } else {
        const group = byHandler.get(row.handler);
        if (group) group.push(row);
        else byHandler.set(row.handler, [row]);
      }
    }
    for (const [handler, group] of byHandler) {
      const candidates = await this.registry.candidates(handler);
      if (candidates.length === 0) {
        out.unroutable += group.length;
        this.logger.warn(`no live executor advertises handler '${handler}'; ${group.length} instance(s) stay PENDING`);
        continue;
      }
      const nodes = await this.roundRobin.selectMany(handler, group.length, candidates);
      const won = await this.assign(group, nodes, now);
      out.dispatched += won;
      out.skipped += group.length - won;
    }
    return out;
  }

  /** Conditional PENDING→DISPATCHED per row (in parallel), then one push per node. */
  private async assign(rows: JobInstance[], nodes: LiveNode[], now: number): Promise<number> {
    const results = await Promise.all(
      rows.map((row, i) =>
        this.instances.transition(
          row.id,
          JobInstanceStatus.PENDING,
          JobInstanceStatus.DISPATCHED,
          { attempt: row.attempt },
          { nodeId: nodes[i].nodeId, dispatchedAt: now },
          now,
        ),
      ),
    );
    const perNode = new Map<string, string[]>();
    results.forEach((won, i) => {
      if (!won) return;
      const ids = perNode.get(nodes[i].nodeId);
      if (ids) ids.push(rows[i].id);
      else perNode.set(nodes[i].nodeId, [rows[i].id]);
    });
    await Promise.all([...perNode].map(([nodeId, ids]) => this.coordination.pushReady(nodeId, ids)));
    return results.filter(Boolean).length;
  }
}
