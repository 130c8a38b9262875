import type { CoordinationPort, CounterPort, SignalPort } from '../../../src/modules/coordination/index.js';
import { sleep } from '../../utils/async.js';
import { advert, fixture, type FixtureFactory, queued, useContract } from './fixture.js';

/** {@link CounterPort}. */
export function describeCounterContract(factory: FixtureFactory): void {
  describe('counters', () => {
    let sut: CounterPort;
    useContract(factory, (port) => (sut = port));

    it('should increment counters atomically by the given step', async () => {
      expect(await sut.increment('c')).toBe(1);
      expect(await sut.increment('c', 5)).toBe(6);
      expect(await sut.increment('c', -2)).toBe(4);
      expect(await sut.increment('other')).toBe(1);
      const values = await Promise.all(Array.from({ length: 20 }, () => sut.increment('race')));
      expect(values.sort((a, b) => a - b)).toEqual(Array.from({ length: 20 }, (_, i) => i + 1));
    });
  });
}

/** {@link SignalPort}. */
export function describeSignalContract(factory: FixtureFactory): void {
  describe('signals', () => {
    let sut: SignalPort;
    useContract(factory, (port) => (sut = port));

    /** Polls `cond` for up to 10 s (it was 1 s: little for a pub/sub round trip on a loaded machine). */
    const until = async (cond: () => boolean) => {
      for (let i = 0; i < 1000 && !cond(); i++) await sleep(10);
    };

    it('should deliver a published message to every subscriber of the channel, and stop after unsubscribe', async () => {
      const a: string[] = [];
      const b: string[] = [];
      const offA = await sut.subscribe('jobs', (m) => a.push(m));
      const offB = await sut.subscribe('jobs', (m) => b.push(m));
      await sut.publish('jobs', 'job-1');
      await until(() => a.length === 1 && b.length === 1);
      expect([a, b]).toEqual([['job-1'], ['job-1']]);
      await offA();
      await sut.publish('jobs', 'job-2');
      await until(() => b.length === 2);
      await sleep(30);
      expect([a, b]).toEqual([['job-1'], ['job-1', 'job-2']]);
      await offB();
      await offB(); // twice is harmless
      await sut.publish('jobs', 'job-3');
      await sleep(30);
      expect(b).toEqual(['job-1', 'job-2']);
    });

    it('should keep channels apart, and namespaces apart', async () => {
      const heard: string[] = [];
      await sut.subscribe('jobs', (m) => heard.push(`jobs:${m}`));
      const other = await fixture.open('other-ns');
      await other.publish('jobs', 'elsewhere');
      await sut.publish('nodes', 'n1');
      await sut.publish('jobs', 'here');
      await until(() => heard.length > 0);
      await sleep(30);
      expect(heard).toEqual(['jobs:here']);
    });

    it('should accept a publish nobody listens to', async () => {
      await expect(sut.publish('nobody', 'x')).resolves.toBeUndefined();
    });
  });
}

/** What spans the concerns: namespaces keep every concern apart; close is idempotent. */
export function describeLifecycleContract(factory: FixtureFactory): void {
  describe('namespaces and lifecycle', () => {
    let sut: CoordinationPort;
    useContract(factory, (port) => (sut = port));

    it('should keep two namespaces apart', async () => {
      const a = await fixture.open('a');
      const b = await fixture.open('b');
      await a.tryAcquireLock('leader', 'n1', 5000);
      await a.pushReady('n1', queued('x'));
      await a.scheduleDelayed('d', 1);
      await a.heartbeat('n1', advert(), 1000);
      await a.increment('c', 10);
      await a.acceptNonce('app', 'once', 5000);
      expect(await b.lockOwner('leader')).toBeNull();
      expect(await b.queueDepth('n1')).toEqual({ ready: 0, processing: 0 });
      expect(await b.claim('n1', 0)).toBeNull();
      expect(await b.takeDue(10, 10)).toEqual([]);
      expect(await b.liveNodes(0)).toEqual([]);
      expect(await b.increment('c')).toBe(1);
      expect(await b.acceptNonce('app', 'once', 5000)).toBe(true);
      expect((await a.queuedIds('n1')).has('x')).toBe(true);
    });

    it('should close idempotently', async () => {
      await sut.close();
      await expect(sut.close()).resolves.toBeUndefined();
    });
  });
}
