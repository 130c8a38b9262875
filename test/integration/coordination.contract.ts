import { describeLockContract } from './coordination-contract/locks.js';
import { describeNodeQueueContract } from './coordination-contract/node-queues.js';
import { describeNodeQueueRankContract } from './coordination-contract/node-queue-ranks.js';
import {
  describeDelayQueueContract,
  describeNodeRegistryContract,
} from './coordination-contract/delay-queue-and-registry.js';
import { describeSemaphoreContract } from './coordination-contract/semaphores.js';
import { describeNonceContract } from './coordination-contract/nonces.js';
import {
  describeCounterContract,
  describeLifecycleContract,
  describeSignalContract,
} from './coordination-contract/counters-signals-lifecycle.js';
import type { FixtureFactory } from './coordination-contract/fixture.js';

export {
  type CoordinationFixture,
  type ExpiryTiming,
  FAKE_TIMING,
  type FixtureFactory,
} from './coordination-contract/fixture.js';

/**
 * The CoordinationPort contract (docs/architecture.md): every adapter runs it, one
 * describe per concern, each seeing the adapter only through that concern's port, so the standalone and
 * cluster shapes behave the same.
 */
export function describeCoordinationContract(name: string, factory: FixtureFactory): void {
  describe(name, () => {
    describeLockContract(factory);
    describeNodeQueueContract(factory);
    describeNodeQueueRankContract(factory);
    describeDelayQueueContract(factory);
    describeNodeRegistryContract(factory);
    describeSemaphoreContract(factory);
    describeNonceContract(factory);
    describeCounterContract(factory);
    describeSignalContract(factory);
    describeLifecycleContract(factory);
  });
}
