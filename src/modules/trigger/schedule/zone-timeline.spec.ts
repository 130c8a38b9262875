import { cronEvaluatorOf } from './cron-schedule.js';
import { canonicalZone, ZoneTimeline } from './zone-timeline.js';

const ms = (iso: string) => Date.parse(iso);
const wall = (fields: string) => Date.parse(`${fields}Z`);
const HOUR = 3_600_000;

describe(ZoneTimeline.name, () => {
  it('should read offsets from Intl whatever their sign, minutes or zero', () => {
    expect(ZoneTimeline.of('UTC').offsetAt(0)).toBe(0);
    expect(ZoneTimeline.of('Asia/Kathmandu').offsetAt(ms('2026-01-01T00:00:00Z'))).toBe(5.75 * HOUR);
    expect(ZoneTimeline.of('America/St_Johns').offsetAt(ms('2026-01-01T00:00:00Z'))).toBe(-3.5 * HOUR);
    expect(ZoneTimeline.of('Australia/Lord_Howe').offsetAt(ms('2026-01-01T00:00:00Z'))).toBe(11 * HOUR);
  });

  it('should share one timeline among the spellings of a zone (case variants are unbounded, zones are not)', () => {
    const sut = ZoneTimeline.of('America/New_York');
    expect(ZoneTimeline.of('america/new_york')).toBe(sut);
    expect(ZoneTimeline.of('AMERICA/NEW_YORK')).toBe(sut);
    expect(ZoneTimeline.of('utc')).toBe(ZoneTimeline.of('UTC'));
    const before = ZoneTimeline.zonesKept();
    for (let n = 0; n < 5000; n++)
      ZoneTimeline.of([...'america/chicago'].map((c, i) => ((n >> i) & 1 ? c.toUpperCase() : c)).join(''));
    expect(ZoneTimeline.zonesKept()).toBeLessThanOrEqual(before + 1);
    expect(canonicalZone('america/NEW_YORK')).toBe('America/New_York');
    expect(() => canonicalZone('Nowhere/Atlantis')).toThrow(RangeError);
    expect(cronEvaluatorOf('0 0 * * *', 'AMERICA/new_york').timeline).toBe(sut);
  });

  it('should split a window at the transition second when the day has a clock change (Lord Howe, April 2026)', () => {
    const sut = ZoneTimeline.of('Australia/Lord_Howe').window(wall('2026-04-05T00:00:00'));
    expect(sut.segments.map((s) => [s.from, s.offset])).toEqual([
      [-Infinity, 11 * HOUR],
      [ms('2026-04-04T15:00:00Z'), 10.5 * HOUR],
    ]);
    expect([sut.minOffset, sut.maxOffset]).toEqual([10.5 * HOUR, 11 * HOUR]);
  });

  it('should map a repeated wall time to two instants and a normal one to one when the clocks go back', () => {
    const sut = ZoneTimeline.of('Australia/Lord_Howe').window(wall('2026-04-05T00:00:00'));
    expect(sut.instantsOf(wall('2026-04-05T01:45:00'))).toEqual([
      ms('2026-04-04T14:45:00Z'),
      ms('2026-04-04T15:15:00Z'),
    ]);
    expect(sut.instantsOf(wall('2026-04-05T02:00:00'))).toEqual([ms('2026-04-04T15:30:00Z')]);
    expect(sut.shiftedOutOfGap(wall('2026-04-05T01:45:00'))).toBeNull();
  });

  it('should map a wall time in a gap to no instant, and shift it later by the gap when asked', () => {
    const sut = ZoneTimeline.of('Australia/Lord_Howe').window(wall('2026-10-04T00:00:00'));
    expect(sut.instantsOf(wall('2026-10-04T02:15:00'))).toEqual([]);
    expect(sut.shiftedOutOfGap(wall('2026-10-04T02:15:00'))).toBe(ms('2026-10-03T15:45:00Z')); // 02:45 +11:00
  });

  it('should keep one segment when no clock change is near the day', () => {
    expect(ZoneTimeline.of('Europe/London').window(wall('2026-07-01T00:00:00')).segments).toHaveLength(1);
  });
});
