import { Inject, Injectable } from '@nestjs/common';
import { CLOCK, type Clock } from '../../../common/index.js';
import { NODE_QUEUES, type NodeQueuePort } from '../../coordination/index.js';
import { NodeRegistryService } from '../../dispatch/index.js';
import { MetricsService } from '../../observability/index.js';

/**
 * The leader-only gauges (docs/observability.md): live executors, the live nodes' queue depths, the registered nodes'
 * heartbeat ages. Other pods read 0 and no per-node series: losing the lead clears them, and a late refresh is dropped.
 */
@Injectable()
export class LeaderGauges {
  constructor(
    private readonly registry: NodeRegistryService,
    @Inject(NODE_QUEUES) private readonly queues: NodeQueuePort,
    private readonly metrics: MetricsService,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  /** Reads the registry and the live nodes' queue depths, then sets every gauge at once unless `signal` aborted. */
  async refresh(signal: AbortSignal): Promise<void> {
    const live = await this.registry.liveNodes();
    const stale = await this.registry.staleNodes();
    const depths = await Promise.all(
      live.map(async ({ nodeId }) => ({ nodeId, ...(await this.queues.queueDepth(nodeId)) })),
    );
    if (signal.aborted) return;
    const { liveExecutors, queueDepth, executorHeartbeatAge } = this.metrics;
    const now = this.clock.now();
    liveExecutors.set(live.length);
    queueDepth.reset(); // nodes gone since the last refresh drop out
    for (const d of depths) {
      queueDepth.set({ node: d.nodeId, list: 'ready' }, d.ready);
      queueDepth.set({ node: d.nodeId, list: 'processing' }, d.processing);
    }
    executorHeartbeatAge.reset();
    for (const n of [...live, ...stale])
      executorHeartbeatAge.set({ node: n.nodeId }, Math.max(0, now - n.lastBeat) / 1000);
  }

  /** Sets the gauges as on a pod that does not lead: 0 live executors, no per-node series. */
  clear(): void {
    this.metrics.liveExecutors.set(0);
    this.metrics.queueDepth.reset();
    this.metrics.executorHeartbeatAge.reset();
  }
}
