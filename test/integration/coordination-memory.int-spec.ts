import { Test } from '@nestjs/testing';
import { CoreModule, type AppConfig } from '../../src/config/index.js';
import {
  COORDINATION,
  CoordinationModule,
  COUNTERS,
  DELAY_QUEUE,
  InProcessCoordinationAdapter,
  LOCKS,
  NODE_QUEUES,
  NODE_REGISTRY,
  NONCES,
  SEMAPHORES,
  SIGNALS,
  type CoordinationPort,
} from '../../src/modules/coordination/index.js';
import { FakeClock } from '../fakes/fake-clock.js';
import { describeCoordinationContract, type CoordinationFixture } from './coordination.contract.js';

/** A clock that only moves when told to (epoch ms); the adapter sets no timers on it. */
class SteppedClock extends FakeClock {
  constructor() {
    super(Date.UTC(2030, 0, 1));
  }
  advance(ms: number): void {
    this.setNow(this.now() + ms);
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

describe('CoordinationModule (standalone)', () => {
  it('should bind every per-concern token to the one adapter behind COORDINATION', async () => {
    const config = { namespace: 'tw-coord-tokens' } as AppConfig;
    const moduleRef = await Test.createTestingModule({
      imports: [CoreModule.forConfig(config), CoordinationModule],
    }).compile();
    const port = moduleRef.get(COORDINATION);
    expect(port).toBeInstanceOf(InProcessCoordinationAdapter);
    for (const token of [LOCKS, NODE_QUEUES, DELAY_QUEUE, NODE_REGISTRY, SEMAPHORES, NONCES, COUNTERS, SIGNALS]) {
      expect(moduleRef.get(token)).toBe(port);
    }
    await moduleRef.close();
  });
});
