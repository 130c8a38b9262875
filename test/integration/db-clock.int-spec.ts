import { Logger } from '@nestjs/common';
import { jest } from '@jest/globals';
import { type Clock, SystemClock } from '../../src/common/index.js';
import { DbClock } from '../../src/modules/metadata/index.js';
import { MetricsService } from '../../src/modules/observability/index.js';
import { type DbKind, openMetadataDb } from '../utils/metadata-db.js';

/** The system clock moved by `shiftMs`: a node whose clock is off the database's. */
function shifted(shiftMs: number): Clock {
  const real = new SystemClock();
  return { now: () => real.now() + shiftMs, schedule: (ms, fn) => real.schedule(ms, fn) };
}

async function gauge(metrics: MetricsService): Promise<number | undefined> {
  return (await metrics.registry.getSingleMetric('tickwheel_clock_offset_seconds')?.get())?.values[0]?.value;
}

describe('DbClock: a node clock against the database clock', () => {
  const warn = jest.spyOn(Logger.prototype, 'warn').mockImplementation(() => undefined);
  afterAll(() => warn.mockRestore());

  it.each([
    [-1500, 'ahead of'],
    [1500, 'behind'],
  ])('should estimate an offset of about %i ms on MariaDB, set the gauge and warn once', async (offset, word) => {
    const db = await openMetadataDb('mysql', 'db-clock');
    try {
      const metrics = new MetricsService();
      const sut = new DbClock(db.ds, shifted(-offset), metrics);
      warn.mockClear();
      const got = (await sut.measure()) as number;
      expect(Math.abs(got - offset)).toBeLessThan(300);
      expect(await gauge(metrics)).toBeCloseTo(got / 1000, 3);
      await sut.measure();
      const lines = warn.mock.calls.map((c) => String(c[0]));
      expect(lines).toEqual([expect.stringMatching(new RegExp(`clock is ${word} the database's by \\d+ ms`))]);
    } finally {
      await db.close();
    }
  });

  it('should keep the last estimate when a read fails', async () => {
    const db = await openMetadataDb('mysql', 'db-clock');
    const sut = new DbClock(db.ds, new SystemClock(), new MetricsService());
    const first = await sut.measure();
    expect(Math.abs(first as number)).toBeLessThan(300);
    await db.close(); // the pool is gone: the next read fails
    expect(await sut.measure()).toBeNull();
    expect(sut.offsetMs).toBe(first);
  });

  it.each<DbKind>(['sqlite'])(
    'should report 0 on %s, whatever the node clock says (one host, one clock)',
    async (k) => {
      const db = await openMetadataDb(k, 'db-clock');
      try {
        const metrics = new MetricsService();
        expect(await new DbClock(db.ds, shifted(5000), metrics).measure()).toBe(0);
        expect(await gauge(metrics)).toBe(0);
      } finally {
        await db.close();
      }
    },
  );
});
