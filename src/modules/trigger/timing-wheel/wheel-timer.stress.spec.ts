import { FakeClock } from '../../../../test/fakes/fake-clock.js';
import { WheelTimer } from './wheel-timer.js';

// Bound once: global lookups are slow inside Jest's VM context, and the 1e6 loops make millions of them.
const { floor, imul } = Math;

/** Seeded PRNG (mulberry32): uniform in [0, 1), same sequence for the same seed. */
function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = imul(t ^ (t >>> 15), t | 1);
    t ^= t + imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

interface Harness {
  sut: WheelTimer<number>;
  clock: FakeClock;
}

/** A timer over a fake clock; `onExpired` receives (payloads, nowMs). */
function harness(
  tickMs: number,
  wheelSize: number,
  startMs: number,
  onExpired: (p: number[], nowMs: number) => void,
): Harness {
  const clock = new FakeClock(startMs);
  const sut = new WheelTimer<number>({
    tickMs,
    wheelSize,
    startMs,
    schedule: clock.schedule,
    onExpired,
    now: clock.now,
  });
  return { sut, clock };
}

describe(`${WheelTimer.name} (stress)`, () => {
  it('should deliver every random entry once, never early and within tickMs when driven at the requested times', () => {
    const rand = mulberry32(20260101);
    const expiry = new Map<number, number>();
    const deliveredAt = new Map<number, number>();
    const cancelled = new Set<number>();
    let duplicates = 0;
    let nextPayload = 0;
    const { sut, clock } = harness(10, 5, 1000, (payloads, nowMs) => {
      for (const p of payloads) {
        if (deliveredAt.has(p)) duplicates++;
        deliveredAt.set(p, nowMs);
      }
      // Keep adding while time runs, some already due (from nowMs - 5), to exercise re-arming mid-run.
      if (nextPayload < 6000 && rand() < 0.5) addRandom(nowMs - 5, 3000);
    });
    function addRandom(fromMs: number, spanMs: number): void {
      const p = nextPayload++;
      const at = floor(fromMs + rand() * spanMs);
      expiry.set(p, at);
      sut.add(`${p}`, at, p);
      if (rand() < 0.1 && sut.cancel(`${p}`)) cancelled.add(p);
    }
    for (let i = 0; i < 5000; i++) addRandom(1000, 200_000);
    clock.runAll();

    expect(duplicates).toBe(0);
    for (const [p, at] of expiry) {
      if (cancelled.has(p)) {
        expect(deliveredAt.has(p)).toBe(false);
        continue;
      }
      const nowMs = deliveredAt.get(p)!;
      expect(nowMs).toBeGreaterThanOrEqual(at);
      expect(nowMs - at).toBeLessThan(10);
    }
    expect(deliveredAt.size).toBe(expiry.size - cancelled.size);
    expect(sut.size).toBe(0);
    expect(clock.pendingCount).toBe(0);
    expect(clock.maxPending).toBeLessThanOrEqual(1);
  });

  it('should deliver a year-ahead entry exactly on time with few wake-ups when tick is 1 ms and size 512', () => {
    const start = Date.UTC(2026, 0, 1);
    const at = start + 365 * 24 * 3600 * 1000 + 123;
    const got: Array<[number[], number]> = [];
    const { sut, clock } = harness(1, 512, start, (payloads, nowMs) => got.push([payloads, nowMs]));
    sut.add('far', at, 7);
    sut.add('near', start + 5, 1);
    clock.runAll();
    expect(got).toEqual([
      [[1], start + 5],
      [[7], at],
    ]);
    // One wake-up per level crossed plus one per 2^31-1 ms cap on a single delay: far below a tick per ms.
    expect(clock.fired.length).toBeLessThan(40);
    expect(sut.size).toBe(0);
    expect(clock.pendingCount).toBe(0);
    expect(clock.maxPending).toBe(1);
  });

  it.each([
    ['all delivered', false],
    ['half cancelled', true],
  ])('should deliver each of 1e6 entries exactly once when %s', (_name, cancelHalf) => {
    const n = 1_000_000;
    const start = 1_700_000_000_000;
    const rand = mulberry32(7);
    const expiry = new Float64Array(n);
    const count = new Uint8Array(n);
    let early = 0;
    let calls = 0;
    const { sut, clock } = harness(1, 512, start, (payloads, nowMs) => {
      calls++;
      for (const p of payloads) {
        count[p]++;
        if (nowMs < expiry[p]) early++;
      }
    });
    const t0 = performance.now();
    for (let i = 0; i < n; i++) {
      expiry[i] = start + 1 + floor(rand() * 3_600_000);
      sut.add(`${i}`, expiry[i], i);
    }
    let refused = 0;
    if (cancelHalf) for (let i = 0; i < n; i += 2) if (!sut.cancel(`${i}`)) refused++;
    const t1 = performance.now();
    clock.runAll();
    const t2 = performance.now();
    process.stdout.write(
      `1e6 ${cancelHalf ? 'half cancelled' : 'all delivered'}: add${cancelHalf ? '+cancel' : ''} ` +
        `${(t1 - t0).toFixed(0)} ms, drive ${(t2 - t1).toFixed(0)} ms, ${calls} onExpired calls, ` +
        `${clock.fired.length} wake-ups\n`,
    );

    expect(refused).toBe(0);
    expect(early).toBe(0);
    let wrong = 0;
    for (let i = 0; i < n; i++) if (count[i] !== (cancelHalf && i % 2 === 0 ? 0 : 1)) wrong++;
    expect(wrong).toBe(0);
    expect(sut.size).toBe(0);
    expect(sut.nextExpiry()).toBeNull();
    expect(clock.pendingCount).toBe(0);
    expect(clock.maxPending).toBe(1);
  });
});
