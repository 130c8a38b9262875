import { FakeClock } from '../../../test/fakes/fake-clock.js';
import type { AppConfig } from '../../config/index.js';
import type { SignalPort } from '../coordination/index.js';
import { AbortReason } from './abort-reason.js';
import { LeaseKeeper } from './lease-keeper.js';
import type { RunningAttempt } from './task-runner.service.js';

const T0 = 1_800_000_000_000;
const LEASE_MS = 30_000;
const RENEW_MS = 10_000;
const settle = () => new Promise((r) => setImmediate(r));

/** LeaseKeeper on a FakeClock: renewal cadence, LEASE_LOST on a lost renewal, REVOKED on a revocation check. */
describe('LeaseKeeper', () => {
  let clock: FakeClock;
  let attempts: Map<string, RunningAttempt>;
  let renewals: Array<{ id: string; until: number; at: number }>;
  let lost: Set<string>;
  let failing: boolean;
  let revoked: string[];
  let stopListener: ((id: string) => void) | null;
  let sut: LeaseKeeper;

  const attempt = (id: string): RunningAttempt => ({
    instanceId: id,
    handler: 'h',
    fencingToken: 1,
    controller: new AbortController(),
  });
  const reasonOf = (id: string) => (attempts.get(id)?.controller.signal.reason as Error | undefined)?.message;

  beforeEach(() => {
    clock = new FakeClock(T0);
    attempts = new Map([
      ['a', attempt('a')],
      ['b', attempt('b')],
    ]);
    renewals = [];
    lost = new Set();
    failing = false;
    revoked = [];
    stopListener = null;
    const runner = { running: attempts, runs: (id: string) => attempts.has(id) };
    const rows = {
      renewLease: async (id: string, _token: number, until: number) => {
        if (failing) throw new Error('database away');
        renewals.push({ id, until, at: clock.now() });
        return !lost.has(id);
      },
      notRunningAnyMore: async <T extends { id: string }>(refs: T[]) => refs.filter((r) => revoked.includes(r.id)),
    };
    const coordination = {
      subscribe: async (_name: string, listener: (id: string) => void) => {
        stopListener = listener;
        return async () => void (stopListener = null);
      },
    } as unknown as SignalPort;
    const config = { leaseMs: LEASE_MS, leaseRenewMs: RENEW_MS } as AppConfig;
    sut = new LeaseKeeper(runner, rows, coordination, config, clock);
  });

  it('should renew every lease every LEASE_RENEW_MS to now + LEASE_MS, before the previous one expires', async () => {
    await sut.start();
    for (let k = 0; k < 3; k++) {
      clock.runNext();
      await settle();
    }
    expect(renewals.map((r) => [r.id, r.at - T0, r.until - T0])).toEqual([
      ['a', 10_000, 40_000],
      ['b', 10_000, 40_000],
      ['a', 20_000, 50_000],
      ['b', 20_000, 50_000],
      ['a', 30_000, 60_000],
      ['b', 30_000, 60_000],
    ]);
    for (let k = 1; k < renewals.length / 2; k++) expect(renewals[2 * k].at).toBeLessThan(renewals[2 * (k - 1)].until);
    expect(clock.pendingCount).toBe(1);
  });

  it('should abort (LEASE_LOST) an attempt whose renewal finds the row no longer its own, only that', async () => {
    await sut.start();
    lost.add('b');
    clock.runNext();
    await settle();
    expect(reasonOf('b')).toBe(AbortReason.LEASE_LOST);
    expect(attempts.get('a')?.controller.signal.aborted).toBe(false);
  });

  it('should abort nothing when a renewal fails (the lease may still be valid)', async () => {
    await sut.start();
    failing = true;
    clock.runNext();
    await settle();
    expect([...attempts.values()].some((a) => a.controller.signal.aborted)).toBe(false);
  });

  it('should stop renewing once told to', async () => {
    await sut.start();
    sut.stopRenewal();
    expect(clock.runNext()).toBe(false);
    await sut.unsubscribe();
    expect(stopListener).toBeNull();
  });

  it('should abort (REVOKED) the attempts a stop signal names once the check reads them revoked', async () => {
    await sut.start();
    revoked = ['a'];
    stopListener?.('elsewhere'); // not running here: no check
    expect(attempts.get('a')?.controller.signal.aborted).toBe(false);
    stopListener?.('a');
    await settle();
    expect(reasonOf('a')).toBe(AbortReason.REVOKED);
    expect(attempts.get('b')?.controller.signal.aborted).toBe(false);
  });

  it('should run a check asked for during another once more after it', async () => {
    let reads = 0;
    const rows = { renewLease: async () => true, notRunningAnyMore: async () => (reads++, []) };
    const keeper = new LeaseKeeper(
      { running: attempts, runs: () => true },
      rows,
      {} as SignalPort,
      {} as AppConfig,
      clock,
    );
    const first = keeper.checkRevoked();
    const second = keeper.checkRevoked();
    expect(second).toBe(first);
    await first;
    expect(reads).toBe(2);
  });
});
