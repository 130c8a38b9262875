import type { CounterPort, LiveNode } from '../../coordination/index.js';
import { RoutingStrategy } from '../../metadata/index.js';
import { RoutableInstance, RoutingStrategyImpl } from './routing-strategy.js';

/** ROUND_ROBIN (docs/dispatch.md): the shared counter `rr:<handler>` modulo the sorted candidates. */
export class RoundRobinStrategy implements RoutingStrategyImpl {
  readonly type = RoutingStrategy.ROUND_ROBIN;

  /** @param counters where the per-handler counters live (shared by every pod in the cluster shape) */
  constructor(private readonly counters: CounterPort) {}

  async select(instance: RoutableInstance, candidates: LiveNode[]): Promise<LiveNode> {
    const start = await this.reserve(instance.handler, 1);
    return candidates[start % candidates.length];
  }

  /** The nodes of `count` consecutive positions of `handler` (one round trip); `[]` when `count <= 0`. */
  selectMany(handler: string, count: number, candidates: LiveNode[]): Promise<LiveNode[]>;
  /** {@link RoutingStrategyImpl.selectMany}: one round trip per distinct handler, in parallel. */
  selectMany(instances: RoutableInstance[], candidates: LiveNode[]): Promise<LiveNode[]>;
  async selectMany(...args: [string, number, LiveNode[]] | [RoutableInstance[], LiveNode[]]): Promise<LiveNode[]> {
    if (args.length === 2) return this.rotate(args[0], args[1]);
    const [handler, count, candidates] = args;
    if (count <= 0) return [];
    const start = await this.reserve(handler, count);
    return Array.from({ length: count }, (_, i) => candidates[(start + i) % candidates.length]);
  }

  private async rotate(instances: RoutableInstance[], candidates: LiveNode[]): Promise<LiveNode[]> {
    const counts = new Map<string, number>();
    for (const { handler } of instances) counts.set(handler, (counts.get(handler) ?? 0) + 1);
    const next = new Map<string, number>();
    await Promise.all(
      [...counts].map(async ([handler, count]) => next.set(handler, await this.reserve(handler, count))),
    );
    return instances.map(({ handler }) => {
      const position = next.get(handler)!;
      next.set(handler, position + 1);
      return candidates[position % candidates.length];
    });
  }

  /** Advances the handler's counter by `count` and returns the first reserved position, 0-based. */
  private async reserve(handler: string, count: number): Promise<number> {
    return (await this.counters.increment(`rr:${handler}`, count)) - count;
  }
}
