import type {
  CoordinationPort,
  CounterPort,
  DelayQueuePort,
  LockPort,
  NodeQueuePort,
  NodeRegistryPort,
  NoncePort,
  SemaphorePort,
  SignalPort,
} from './coordination.port.js';

/** A concern's implementation that holds connections or timers. */
interface Closable {
  close(): Promise<void>;
}

/** The per-concern parts an adapter is made of. */
export interface CoordinationParts {
  lock: LockPort;
  nodeQueue: NodeQueuePort & Closable;
  delayQueue: DelayQueuePort;
  registry: NodeRegistryPort;
  semaphore: SemaphorePort;
  nonce: NoncePort;
  counter: CounterPort;
  signal: SignalPort & Closable;
}

type Args<K extends keyof CoordinationPort> = Parameters<CoordinationPort[K]>;

/**
 * A {@link CoordinationPort} that hands each call to the part of its concern; both adapters are one of
 * these over their own parts, so an adapter reads as the list of its parts.
 */
export abstract class ComposedCoordination implements CoordinationPort {
  protected constructor(private readonly parts: CoordinationParts) {}

  tryAcquireLock(...a: Args<'tryAcquireLock'>) {
    return this.parts.lock.tryAcquireLock(...a);
  }
  renewLock(...a: Args<'renewLock'>) {
    return this.parts.lock.renewLock(...a);
  }
  releaseLock(...a: Args<'releaseLock'>) {
    return this.parts.lock.releaseLock(...a);
  }
  lockOwner(...a: Args<'lockOwner'>) {
    return this.parts.lock.lockOwner(...a);
  }

  pushReady(...a: Args<'pushReady'>) {
    return this.parts.nodeQueue.pushReady(...a);
  }
  claim(...a: Args<'claim'>) {
    return this.parts.nodeQueue.claim(...a);
  }
  claimMany(...a: Args<'claimMany'>) {
    return this.parts.nodeQueue.claimMany(...a);
  }
  ack(...a: Args<'ack'>) {
    return this.parts.nodeQueue.ack(...a);
  }
  ackMany(...a: Args<'ackMany'>) {
    return this.parts.nodeQueue.ackMany(...a);
  }
  drainNode(...a: Args<'drainNode'>) {
    return this.parts.nodeQueue.drainNode(...a);
  }
  queueDepth(...a: Args<'queueDepth'>) {
    return this.parts.nodeQueue.queueDepth(...a);
  }
  queueDepths(...a: Args<'queueDepths'>) {
    return this.parts.nodeQueue.queueDepths(...a);
  }
  queuedIds(...a: Args<'queuedIds'>) {
    return this.parts.nodeQueue.queuedIds(...a);
  }

  scheduleDelayed(...a: Args<'scheduleDelayed'>) {
    return this.parts.delayQueue.scheduleDelayed(...a);
  }
  takeDue(...a: Args<'takeDue'>) {
    return this.parts.delayQueue.takeDue(...a);
  }
  delayedDueAt(...a: Args<'delayedDueAt'>) {
    return this.parts.delayQueue.delayedDueAt(...a);
  }

  heartbeat(...a: Args<'heartbeat'>) {
    return this.parts.registry.heartbeat(...a);
  }
  liveNodes(...a: Args<'liveNodes'>) {
    return this.parts.registry.liveNodes(...a);
  }
  staleNodes(...a: Args<'staleNodes'>) {
    return this.parts.registry.staleNodes(...a);
  }
  removeNode(...a: Args<'removeNode'>) {
    return this.parts.registry.removeNode(...a);
  }

  acquireSlots(...a: Args<'acquireSlots'>) {
    return this.parts.semaphore.acquireSlots(...a);
  }
  seedSlots(...a: Args<'seedSlots'>) {
    return this.parts.semaphore.seedSlots(...a);
  }
  releaseSlot(...a: Args<'releaseSlot'>) {
    return this.parts.semaphore.releaseSlot(...a);
  }

  acceptNonce(...a: Args<'acceptNonce'>) {
    return this.parts.nonce.acceptNonce(...a);
  }
  takeTokens(...a: Args<'takeTokens'>) {
    return this.parts.nonce.takeTokens(...a);
  }
  admitRequest(...a: Args<'admitRequest'>) {
    return this.parts.nonce.admitRequest(...a);
  }

  increment(...a: Args<'increment'>) {
    return this.parts.counter.increment(...a);
  }

  publish(...a: Args<'publish'>) {
    return this.parts.signal.publish(...a);
  }
  subscribe(...a: Args<'subscribe'>) {
    return this.parts.signal.subscribe(...a);
  }

  /** Closes the signal and queue parts (subscriptions, waiting claims). Idempotent. */
  async close(): Promise<void> {
    await this.parts.signal.close();
    await this.parts.nodeQueue.close();
  }
}
