import type { Clock } from '../../../common/index.js';
import { ComposedCoordination } from '../composed-coordination.js';
import { MemoryCounter } from './memory-counter.js';
import { MemoryDelayQueue } from './memory-delay-queue.js';
import { MemoryLock } from './memory-lock.js';
import { MemoryNodeQueue } from './memory-node-queue.js';
import { MemoryNodeRegistry } from './memory-node-registry.js';
import { MemoryNonce } from './memory-nonce.js';
import { MemorySemaphore } from './memory-semaphore.js';
import { MemorySignal } from './memory-signal.js';

/**
 * {@link CoordinationPort} in this process's memory: the standalone shape (docs/architecture.md), where one
 * process has every role. Production code, not a test fake: it passes the same contract as the Redis
 * adapter, but nothing is shared with other processes or survives a restart. Each instance is its own
 * namespace; lock, nonce and bucket time comes from the injected {@link Clock}.
 */
export class InProcessCoordinationAdapter extends ComposedCoordination {
  /** @param clock source of "now" for lock, nonce and token-bucket expiry (epoch ms). */
  constructor(clock: Clock) {
    super({
      lock: new MemoryLock(clock),
      nodeQueue: new MemoryNodeQueue(),
      delayQueue: new MemoryDelayQueue(),
      registry: new MemoryNodeRegistry(),
      semaphore: new MemorySemaphore(),
      nonce: new MemoryNonce(clock),
      counter: new MemoryCounter(),
      signal: new MemorySignal(),
    });
  }
}
