import type { Clock } from '../../src/common/index.js';
import { InProcessCoordinationAdapter, type CoordinationPort } from '../../src/modules/coordination/index.js';
import { describeCoordinationContract, type CoordinationFixture } from './coordination.contract.js';

/** A clock that only moves when told to (epoch ms). */
class SteppedClock implements Clock {
  constructor(private current = Date.UTC(2030, 0, 1)) {}
  now(): number {
    return this.current;
  }
  advance(ms: number): void {
    this.current += ms;
  }
  schedule(delayMs: number, fn: () => void): () => void {
    const timer = setTimeout(fn, delayMs);
    return () => clearTimeout(timer);
  }
}

function memoryFixture(): CoordinationFixture & { clock: SteppedClock } {
  const clock = new SteppedClock();
  const adapters = new Map<string, InProcessCoordinationAdapter>();
  return {
    clock,
    async open(name = 'main'): Promise<CoordinationPort> {
      let adapter = adapters.get(name);
      if (!adapter) adapters.set(name, (adapter = new InProcessCoordinationAdapter(clock)));
      return adapter;
    },
    async elapse(ms: number): Promise<void> {
      clock.advance(ms);
    },
    async dispose(): Promise<void> {
      await Promise.all([...adapters.values()].map((adapter) => adapter.close()));
    },
  };
}

describeCoordinationContract(InProcessCoordinationAdapter.name, memoryFixture);

describe(`${InProcessCoordinationAdapter.name} (clock)`, () => {
  it('should keep a lock while the clock stands still, however much real time passes', async () => {
    const fixture = memoryFixture();
    const sut = await fixture.open();
    await sut.tryAcquireLock('leader', 'n1', 10);
    await new Promise((resolve) => setTimeout(resolve, 30));
    expect(await sut.lockOwner('leader')).toBe('n1');
    fixture.clock.advance(10);
    expect(await sut.lockOwner('leader')).toBeNull();
    await fixture.dispose();
  });

  it('should accept a nonce again exactly when its ttl has passed', async () => {
    const fixture = memoryFixture();
    const sut = await fixture.open();
    expect(await sut.acceptNonce('app', 'n', 1000)).toBe(true);
    fixture.clock.advance(999);
    expect(await sut.acceptNonce('app', 'n', 1000)).toBe(false);
    fixture.clock.advance(1);
    expect(await sut.acceptNonce('app', 'n', 1000)).toBe(true);
    await fixture.dispose();
  });

  it('should refill token buckets by its clock only, also across sweeps of idle buckets', async () => {
    const fixture = memoryFixture();
    const sut = await fixture.open();
    expect((await sut.takeTokens('app', 1000, 1, 1)).allowed).toBe(true);
    await new Promise((resolve) => setTimeout(resolve, 30));
    expect((await sut.takeTokens('app', 1000, 1, 1)).allowed).toBe(false);
    fixture.clock.advance(1);
    expect((await sut.takeTokens('app', 1000, 1, 1)).allowed).toBe(true);
    for (let i = 0; i < 3000; i++) await sut.takeTokens(`idle-${i}`, 1000, 1, 1);
    fixture.clock.advance(10);
    expect((await sut.takeTokens('app', 1000, 1, 1)).allowed).toBe(true);
    expect((await sut.takeTokens('app', 1000, 1, 1)).allowed).toBe(false);
    await fixture.dispose();
  });

  it('should still reject replays after expired nonces were swept', async () => {
    const fixture = memoryFixture();
    const sut = await fixture.open();
    for (let i = 0; i < 2000; i++) await sut.acceptNonce('app', `old-${i}`, 10);
    expect(await sut.acceptNonce('app', 'keep', 60_000)).toBe(true);
    fixture.clock.advance(100);
    for (let i = 0; i < 3000; i++) await sut.acceptNonce('app', `new-${i}`, 60_000);
    expect(await sut.acceptNonce('app', 'keep', 60_000)).toBe(false);
    expect(await sut.acceptNonce('app', 'old-1', 60_000)).toBe(true);
    await fixture.dispose();
  });
});
