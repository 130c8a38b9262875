import { LiveNode } from '../../coordination/index.js';
import { RoutingStrategy } from '../../metadata/index.js';
import { RoutableInstance, RoutingStrategyImpl } from './routing-strategy.js';

/** A source of uniform numbers in [0, 1), as `Math.random`. */
export type Rng = () => number;

/**
 * RANDOM (DESIGN §6): each instance goes to a candidate drawn uniformly and independently. No shared
 * state, no round trip. `rng` is injectable so tests are deterministic; a value outside [0, 1) is
 * clamped to the first or last candidate rather than failing.
 */
export class RandomStrategy implements RoutingStrategyImpl {
  readonly type = RoutingStrategy.RANDOM;

  /** @param rng uniform source in [0, 1); `Math.random` by default */
  constructor(private readonly rng: Rng = Math.random) {}

  /** One uniform draw. */
  async select(_instance: RoutableInstance, candidates: LiveNode[]): Promise<LiveNode> {
    return this.draw(candidates);
  }

  /** One independent draw per instance, in input order. */
  async selectMany(instances: RoutableInstance[], candidates: LiveNode[]): Promise<LiveNode[]> {
    return instances.map(() => this.draw(candidates));
  }

  private draw(candidates: LiveNode[]): LiveNode {
    const i = Math.floor(this.rng() * candidates.length);
    return candidates[Math.min(Math.max(i, 0), candidates.length - 1)];
  }
}
