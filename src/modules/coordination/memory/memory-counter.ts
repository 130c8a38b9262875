import type { CounterPort } from '../coordination.port.js';
import { checkIncrement } from '../port-args.js';

/** {@link CounterPort} in memory. */
export class MemoryCounter implements CounterPort {
  private readonly counters = new Map<string, number>();

  async increment(name: string, by = 1): Promise<number> {
    checkIncrement(by);
    const value = (this.counters.get(name) ?? 0) + by;
    this.counters.set(name, value);
    return value;
  }
}
