import { jest } from '@jest/globals';
import { ConflictError } from '../../common/index.js';
import { MetricsSlotTaken } from '../metadata/index.js';
import { takeMetricsSlot } from './job-input.js';

/** The per-job metrics slots (docs/observability.md "Job runs") over a stub of the slots in use. */
describe(takeMetricsSlot.name, () => {
  const refusal = (err: unknown) => [err instanceof ConflictError, (err as ConflictError).field];

  it('should write with the lowest free slot', async () => {
    expect(
      await takeMetricsSlot(
        async () => [0, 2],
        5,
        async (slot) => slot,
      ),
    ).toBe(1);
    expect(
      await takeMetricsSlot(
        async () => [],
        5,
        async (slot) => slot,
      ),
    ).toBe(0);
  });

  it('should refuse, naming metrics, when max jobs hold a slot, also slots past a lowered max', async () => {
    const write = jest.fn(async (slot: number) => slot);
    for (const used of [
      [0, 1, 2],
      [3, 7, 9],
    ]) {
      const err = await takeMetricsSlot(async () => used, 3, write).catch((e: unknown) => e);
      expect(refusal(err)).toEqual([true, 'metrics']);
      expect((err as Error).message).toContain('JOB_METRICS_MAX (3)');
    }
    expect(
      await takeMetricsSlot(
        async () => [5, 6],
        3,
        async (slot) => slot,
      ),
    ).toBe(0);
    expect(write).not.toHaveBeenCalled();
  });

  it('should read the slots again when a concurrent write took the one it chose, three tries in all', async () => {
    const reads = [[0], [0, 1], [0, 1, 2]];
    const tried: number[] = [];
    const write = async (slot: number) => {
      tried.push(slot);
      if (tried.length < 3) throw new MetricsSlotTaken(slot);
      return slot;
    };
    expect(await takeMetricsSlot(async () => reads.shift() ?? [], 10, write)).toBe(3);
    expect(tried).toEqual([1, 2, 3]);
    const always = async (slot: number): Promise<number> => {
      throw new MetricsSlotTaken(slot);
    };
    expect(refusal(await takeMetricsSlot(async () => [], 10, always).catch((e: unknown) => e))).toEqual([
      true,
      'metrics',
    ]);
  });

  it('should pass on any other error of the write', async () => {
    const other = new ConflictError('job code taken', 'code');
    const err = await takeMetricsSlot(
      async () => [],
      10,
      async () => Promise.reject(other),
    ).catch((e: unknown) => e);
    expect(err).toBe(other);
  });
});
