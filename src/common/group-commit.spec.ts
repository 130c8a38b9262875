import { GroupCommitter } from './group-commit.js';

describe('GroupCommitter', () => {
  it('should group the items of one turn, then what arrives during a flush', async () => {
    const flushes: number[][] = [];
    let release: () => void = () => undefined;
    const gate = new Promise<void>((r) => (release = r));
    const sut = new GroupCommitter<number, string>(async (items) => {
      flushes.push(items);
      if (flushes.length === 1) await gate;
      return items.map((i) => `r${i}`);
    }, 100);
    const first = [1, 2].map((i) => sut.submit(i));
    await new Promise((r) => setTimeout(r, 5));
    const rest = [3, 4, 5].map((i) => sut.submit(i));
    expect(sut.pending).toBe(3);
    release();
    expect(await Promise.all(first)).toEqual(['r1', 'r2']);
    expect(await Promise.all(rest)).toEqual(['r3', 'r4', 'r5']);
    expect(flushes).toEqual([
      [1, 2],
      [3, 4, 5],
    ]);
  });

  it('should cut groups at maxBatch', async () => {
    const sizes: number[] = [];
    const sut = new GroupCommitter<number, number>(async (items) => {
      sizes.push(items.length);
      await new Promise((r) => setTimeout(r, 5));
      return items;
    }, 2);
    expect(await Promise.all([1, 2, 3, 4, 5].map((i) => sut.submit(i)))).toEqual([1, 2, 3, 4, 5]);
    expect(sizes).toEqual([2, 2, 1]);
  });

  it('should reject every item of a failed flush and go on with the next', async () => {
    let n = 0;
    const sut = new GroupCommitter<number, number>(async (items) => {
      n++;
      await new Promise((r) => setTimeout(r, 5));
      if (n === 2) throw new Error('write failed');
      return items;
    }, 10);
    const a = sut.submit(1);
    await new Promise((r) => setImmediate(r));
    const b = sut.submit(2);
    const c = sut.submit(3);
    expect(await a).toBe(1);
    await expect(b).rejects.toThrow('write failed');
    await expect(c).rejects.toThrow('write failed');
    expect(await sut.submit(4)).toBe(4);
  });

  it('should reject a flush that returns the wrong number of results', async () => {
    const sut = new GroupCommitter<number, number>(async () => [], 10);
    await expect(sut.submit(1)).rejects.toThrow('0 results for 1 items');
  });

  it('should refuse a maxBatch below 1', () => {
    expect(() => new GroupCommitter<number, number>(async (i) => i, 0)).toThrow(RangeError);
  });
});
