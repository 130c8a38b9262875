import { jest } from '@jest/globals';
import { SubmitCoalescer } from './submit-coalescer.js';

/** A write whose groups are recorded and ended by hand (`gates[i]`), answering each item doubled. */
function gatedWrite() {
  const groups: Array<{ key: string; items: number[] }> = [];
  const gates: Array<{ open: () => void; fail: (err: Error) => void }> = [];
  const write = (key: string, items: number[]) => {
    groups.push({ key, items });
    return new Promise<number[]>((resolve, reject) =>
      gates.push({ open: () => resolve(items.map((i) => i * 2)), fail: reject }),
    );
  };
  return { groups, gates, write };
}

/** Lets pending promise reactions and immediates run (a write starts at most one immediate after its submit). */
const settle = async () => {
  for (let i = 0; i < 3; i++) await new Promise((r) => setImmediate(r));
};

// Timers and Date are fake (the overlap delay); immediates are real, so `settle` still lets groups start.
beforeEach(() => jest.useFakeTimers({ doNotFake: ['setImmediate', 'nextTick', 'queueMicrotask'] }));
afterEach(() => jest.useRealTimers());

describe(SubmitCoalescer.name, () => {
  it('should write each key in its own groups, and one key should not wait for another', async () => {
    const { groups, gates, write } = gatedWrite();
    const sut = new SubmitCoalescer(write);
    const a1 = sut.submit('a', 1);
    const b1 = sut.submit('b', 2);
    await settle();
    const a2 = [3, 4].map((i) => sut.submit('a', i));
    const b2 = sut.submit('b', 5);
    await settle();
    expect(groups).toEqual([
      { key: 'a', items: [1] },
      { key: 'b', items: [2] },
    ]);
    gates[1].open();
    await expect(b1).resolves.toBe(4);
    await settle();
    expect(groups.slice(2)).toEqual([{ key: 'b', items: [5] }]);
    gates[0].open();
    await expect(a1).resolves.toBe(2);
    await settle();
    expect(groups.slice(3)).toEqual([{ key: 'a', items: [3, 4] }]);
    gates[3].open();
    gates[2].open();
    await expect(Promise.all([...a2, b2])).resolves.toEqual([6, 8, 10]);
  });

  it('should reject only the callers of the key whose write failed', async () => {
    const { gates, write } = gatedWrite();
    const sut = new SubmitCoalescer(write);
    const a = sut.submit('a', 1);
    const b = sut.submit('b', 2);
    await settle();
    gates[0].fail(new Error('disk full'));
    gates[1].open();
    await expect(a).rejects.toThrow('disk full');
    await expect(b).resolves.toBe(4);
  });

  it('should drop a key once its callers have their answers, and write it afresh later', async () => {
    const { groups, gates, write } = gatedWrite();
    const sut = new SubmitCoalescer(write);
    const first = sut.submit('a', 1);
    expect(sut.activeKeys).toBe(1);
    await settle();
    gates[0].fail(new Error('boom'));
    await expect(first).rejects.toThrow('boom');
    expect(sut.activeKeys).toBe(0);
    const again = sut.submit('a', 7);
    await settle();
    gates[1].open();
    await expect(again).resolves.toBe(14);
    expect(groups.map((g) => g.items)).toEqual([[1], [7]]);
    expect(sut.activeKeys).toBe(0);
  });

  it('should start a second group beside a write that has run overlapAfterMs, not before', async () => {
    const { groups, gates, write } = gatedWrite();
    const sut = new SubmitCoalescer(write, { maxWrites: 2, overlapAfterMs: 10 });
    const stalled = sut.submit('a', 1);
    await settle();
    const later = [2, 3].map((i) => sut.submit('a', i));
    await settle();
    jest.advanceTimersByTime(9);
    await settle();
    expect(groups.map((g) => g.items)).toEqual([[1]]);
    jest.advanceTimersByTime(1);
    await settle();
    expect(groups.map((g) => g.items)).toEqual([[1], [2, 3]]);
    gates[1].open();
    await expect(Promise.all(later)).resolves.toEqual([4, 6]);
    gates[0].open();
    await expect(stalled).resolves.toBe(2);
    expect(sut.activeKeys).toBe(0);
  });

  it('should start the next group at once when a write ends while an older one is still stalled', async () => {
    const { groups, gates, write } = gatedWrite();
    const sut = new SubmitCoalescer(write, { maxWrites: 2, overlapAfterMs: 10 });
    const stalled = sut.submit('a', 1);
    await settle();
    jest.advanceTimersByTime(10);
    const second = sut.submit('a', 2);
    await settle();
    const third = sut.submit('a', 3);
    await settle();
    expect(groups.map((g) => g.items)).toEqual([[1], [2]]); // two under way: 3 waits for one to end
    gates[1].open();
    await expect(second).resolves.toBe(4);
    await settle();
    expect(groups.map((g) => g.items)).toEqual([[1], [2], [3]]);
    gates[2].open();
    await expect(third).resolves.toBe(6);
    gates[0].fail(new Error('lock wait timeout'));
    await expect(stalled).rejects.toThrow('lock wait timeout');
  });

  it('should keep one write at a time with maxWrites 1, however long it runs', async () => {
    const { groups, gates, write } = gatedWrite();
    const sut = new SubmitCoalescer(write, { maxWrites: 1, overlapAfterMs: 0 });
    const first = sut.submit('a', 1);
    await settle();
    const rest = [2, 3].map((i) => sut.submit('a', i));
    jest.advanceTimersByTime(1_000);
    await settle();
    expect(groups.map((g) => g.items)).toEqual([[1]]);
    gates[0].open();
    await first;
    await settle();
    expect(groups.map((g) => g.items)).toEqual([[1], [2, 3]]);
    gates[1].open();
    await expect(Promise.all(rest)).resolves.toEqual([4, 6]);
  });

  it('should cap a group at maxGroup and refuse options out of range', async () => {
    const { groups, gates, write } = gatedWrite();
    const sut = new SubmitCoalescer(write, { maxGroup: 2 });
    const all = [1, 2, 3].map((i) => sut.submit('a', i));
    await settle();
    expect(groups.map((g) => g.items)).toEqual([[1, 2]]);
    gates[0].open();
    await settle();
    gates[1].open();
    await expect(Promise.all(all)).resolves.toEqual([2, 4, 6]);
    expect(() => new SubmitCoalescer(write, { maxWrites: 0 })).toThrow(RangeError);
  });
});
