import { LiveNode } from '../../coordination/index.js';
import { RoutingStrategy } from '../../metadata/index.js';
import { RoutableInstance, RoutingStrategyImpl } from './routing-strategy.js';

/** A source of uniform numbers in [0, 1), as `Math.random`. */
export type Rng = () => number;

/** RANDOM (docs/dispatch.md): an independent uniform draw per instance; an `rng` value outside [0, 1) is clamped. */
export class RandomStrategy implements RoutingStrategyImpl {
  readonly type = RoutingStrategy.RANDOM;

  /** @param rng uniform source in [0, 1); `Math.random` by default */
  constructor(private readonly rng: Rng = Math.random) {}

  async select(_instance: RoutableInstance, candidates: LiveNode[]): Promise<LiveNode> {
    return this.draw(candidates);
  }

  async selectMany(instances: RoutableInstance[], candidates: LiveNode[]): Promise<LiveNode[]> {
    return instances.map(() => this.draw(candidates));
  }

  private draw(candidates: LiveNode[]): LiveNode {
    const i = Math.floor(this.rng() * candidates.length);
    return candidates[Math.min(Math.max(i, 0), candidates.length - 1)];
  }
}
