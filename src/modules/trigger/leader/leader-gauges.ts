import { Inject, Injectable, Logger } from '@nestjs/common';
import { CLOCK, type Clock } from '../../../common/index.js';
import { APP_CONFIG, type AppConfig } from '../../../config/index.js';
import { NODE_QUEUES, type NodeQueuePort } from '../../coordination/index.js';
import { NodeRegistryService, type UnadvertisedWait, UnadvertisedWaits } from '../../dispatch/index.js';
import { MetricsService } from '../../observability/index.js';

/** Most `handler` values of tickwheel_tasks_waiting_unadvertised; the rest are summed as OTHER_HANDLERS. */
export const WAITING_HANDLERS_MAX = 50;
export const OTHER_HANDLERS = 'other';

/**
 * The leader-only gauges (docs/observability.md): live executors, the live nodes' queue depths, the registered nodes'
 * heartbeat ages, the work waiting for an unadvertised handler. Other pods read 0 and no per-node or per-handler
 * series: losing the lead clears them, and a late refresh is dropped.
 */
@Injectable()
export class LeaderGauges {
  private readonly logger = new Logger(LeaderGauges.name);

  constructor(
    private readonly registry: NodeRegistryService,
    @Inject(NODE_QUEUES) private readonly queues: NodeQueuePort,
    private readonly waits: UnadvertisedWaits,
    private readonly metrics: MetricsService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  /** Reads the registry, the live nodes' queue depths and the waits, then sets every gauge at once unless aborted. */
  async refresh(signal: AbortSignal): Promise<void> {
    // A failed scan keeps the waiting gauge as it was (a database hiccup must not clear an alert); the rest go on.
    const waiting = this.waits.scan(this.config.namespace, this.clock.now()).catch((err: Error) => {
      this.logger.warn(`scan of work waiting for an unadvertised handler failed: ${err.message}`);
      return null;
    });
    const live = await this.registry.liveNodes();
    const stale = await this.registry.staleNodes();
    const depths = await Promise.all(
      live.map(async ({ nodeId }) => ({ nodeId, ...(await this.queues.queueDepth(nodeId)) })),
    );
    const waits = await waiting;
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
    if (waits !== null) {
      this.metrics.tasksWaitingUnadvertised.reset();
      for (const [handler, n] of waitingByHandler(waits)) this.metrics.tasksWaitingUnadvertised.set({ handler }, n);
    }
  }

  /** Sets the gauges as on a pod that does not lead: 0 live executors, no per-node or per-handler series. */
  clear(): void {
    this.metrics.liveExecutors.set(0);
    this.metrics.queueDepth.reset();
    this.metrics.executorHeartbeatAge.reset();
    this.metrics.tasksWaitingUnadvertised.reset();
  }
}

/** `waits` summed per handler: the `max` with most (ties by name) alone, the rest summed as {@link OTHER_HANDLERS}. */
export function waitingByHandler(waits: UnadvertisedWait[], max = WAITING_HANDLERS_MAX): Map<string, number> {
  const per = new Map<string, number>();
  for (const w of waits) per.set(w.handler, (per.get(w.handler) ?? 0) + w.count);
  const ranked = [...per].sort(([a, x], [b, y]) => y - x || (a < b ? -1 : a > b ? 1 : 0));
  const out = new Map<string, number>();
  for (const [i, [handler, n]] of ranked.entries()) {
    const label = i < max ? handler : OTHER_HANDLERS;
    out.set(label, (out.get(label) ?? 0) + n);
  }
  return out;
}
