import { jest } from '@jest/globals';
import { FakeClock } from '../../../test/fakes/fake-clock.js';
import { advanceSettled } from '../../../test/fakes/settle.js';
import type { AppConfig } from '../../config/index.js';
import { InProcessCoordinationAdapter, type LockPort } from '../coordination/index.js';
import type { MetricsService } from '../observability/index.js';
import { LeaderElectionService, leaderLockTtlMs, TAKEOVER_MARGIN_MS } from './leader-election.service.js';

const T0 = Date.UTC(2030, 0, 1);
const LEASE_MS = 3000;
const ROUND_MS = LEASE_MS / 3;
const LOCK_TTL_MS = leaderLockTtlMs(LEASE_MS); // 2750: the lease less its 250-ms reserve

/**
 * The leader loop on a hand-driven clock: the lock store is the real in-process adapter timed by the same
 * FakeClock, so lock expiry and campaign rounds move together and only when the test moves them.
 */
describe('LeaderElectionService on the Clock', () => {
  let clock: FakeClock;
  let store: InProcessCoordinationAdapter;
  let services: LeaderElectionService[];

  beforeEach(() => {
    clock = new FakeClock(T0);
    store = new InProcessCoordinationAdapter(clock);
    services = [];
  });

  afterEach(async () => {
    for (const s of services) await s.beforeApplicationShutdown();
    await store.close();
  });

  /** A scheduler campaigning through `locks` (the shared store unless given); `changes` records its onChange calls. */
  function scheduler(locks: LockPort = store) {
    const metrics = { leader: { set: jest.fn() }, leaderAcquisitions: { inc: jest.fn() } };
    const config = { leaderLeaseMs: LEASE_MS } as AppConfig;
    const service = new LeaderElectionService(locks, config, metrics as unknown as MetricsService, clock);
    const changes: Array<[number, boolean]> = [];
    service.onChange((leader) => changes.push([clock.now() - T0, leader]));
    services.push(service);
    return { service, changes, metrics };
  }

  const runUntil = (ms: number) => advanceSettled(clock, T0 + ms);

  it('should take the lock at start and renew it every third of the lease, always before it expires', async () => {
    const { service, changes, metrics } = scheduler();
    const renewals: number[] = [];
    const renew = store.renewLock.bind(store);
    jest.spyOn(store, 'renewLock').mockImplementation(async (...args) => {
      renewals.push(clock.now() - T0);
      return renew(...args);
    });
    await service.start();
    expect(service.isLeader).toBe(true);
    await runUntil(10 * LEASE_MS);
    expect(renewals).toEqual(Array.from({ length: 30 }, (_, i) => (i + 1) * ROUND_MS));
    expect(service.isLeader).toBe(true);
    expect(await store.lockOwner('leader')).toBe(service.owner);
    expect(changes).toEqual([[0, true]]);
    expect(metrics.leader.set).toHaveBeenCalledWith(1);
    expect(metrics.leaderAcquisitions.inc).toHaveBeenCalledTimes(1); // renewals are not acquisitions
    expect(clock.maxPending).toBe(1); // one timer at a time
  });

  it('should step down at once when a renewal fails or is refused, and campaign again at the next round', async () => {
    const { service, changes, metrics } = scheduler();
    await service.start();
    jest.spyOn(store, 'renewLock').mockRejectedValueOnce(new Error('connection lost'));
    await runUntil(ROUND_MS);
    expect(service.isLeader).toBe(false);
    expect(metrics.leader.set).toHaveBeenLastCalledWith(0);
    await runUntil(2 * ROUND_MS); // the lock is still its own: it takes it back
    expect(service.isLeader).toBe(true);
    jest.spyOn(store, 'renewLock').mockResolvedValueOnce(false);
    await runUntil(3 * ROUND_MS);
    expect(changes).toEqual([
      [0, true],
      [ROUND_MS, false],
      [2 * ROUND_MS, true],
      [3 * ROUND_MS, false],
    ]);
    expect(metrics.leaderAcquisitions.inc).toHaveBeenCalledTimes(2); // each gain once, losses not
  });

  it("should take over as the silent leader's lock expires, not before, within one lease", async () => {
    let frozen = false;
    const never = new Promise<never>(() => undefined);
    const frozenStore: LockPort = {
      tryAcquireLock: (...a) => (frozen ? never : store.tryAcquireLock(...a)),
      renewLock: (...a) => (frozen ? never : store.renewLock(...a)),
      releaseLock: (...a) => (frozen ? never : store.releaseLock(...a)),
      lockOwner: (...a) => store.lockOwner(...a),
    };
    const leader = scheduler(frozenStore);
    const standby = scheduler();
    await leader.service.start();
    await standby.service.start();
    await runUntil(2 * ROUND_MS + 500);
    expect([leader.service.isLeader, standby.service.isLeader]).toEqual([true, false]);
    frozen = true; // hung (or killed) right after its renewal at 2 rounds: the lock expires LOCK_TTL_MS later
    const expiry = 2 * ROUND_MS + LOCK_TTL_MS;
    await runUntil(expiry - 1);
    expect(standby.service.isLeader).toBe(false);
    await runUntil(expiry + ROUND_MS);
    // Not at its next round (5000, a third of a lease too late): its try at 4000 learnt the 750 ms left.
    expect(standby.changes).toEqual([[expiry + TAKEOVER_MARGIN_MS, true]]);
    expect(expiry + TAKEOVER_MARGIN_MS - 2 * ROUND_MS).toBeLessThan(LEASE_MS);
    expect(await store.lockOwner('leader')).toBe(standby.service.owner);
    frozen = false; // lets its shutdown's release answer (false: the lock is the standby's)
  });

  it('should try once a round while a live leader holds it, and take a released lock at its next round', async () => {
    const leader = scheduler();
    await leader.service.start();
    await runUntil(400);
    const standby = scheduler();
    const tries: number[] = [];
    const acquire = store.tryAcquireLock.bind(store);
    jest.spyOn(store, 'tryAcquireLock').mockImplementation(async (...args) => {
      tries.push(clock.now() - T0);
      return acquire(...args);
    });
    await standby.service.start();
    await runUntil(400 + 10 * LEASE_MS);
    expect(tries).toEqual(Array.from({ length: 31 }, (_, i) => 400 + i * ROUND_MS)); // no extra tries
    expect(standby.service.isLeader).toBe(false);
    await leader.service.beforeApplicationShutdown(); // released: taken at the standby's next round
    await runUntil(400 + 10 * LEASE_MS + ROUND_MS);
    expect(standby.changes).toEqual([[400 + 10 * LEASE_MS + ROUND_MS, true]]);
  });

  it('should stop its rounds and release the lock on shutdown', async () => {
    const { service, changes } = scheduler();
    await service.start();
    await service.beforeApplicationShutdown();
    expect(clock.pendingCount).toBe(0);
    expect(await store.lockOwner('leader')).toBeNull();
    expect(changes).toEqual([
      [0, true],
      [0, false],
    ]);
  });
});
