import { SchedulerError } from '../../../common/index.js';
import { NotificationKind as K } from '../../metadata/index.js';
import { checkChannels, deadlineOf, ruleParams } from './rule-input.js';

const fieldOf = (fn: () => unknown): string | undefined => {
  try {
    fn();
  } catch (err) {
    return (err as SchedulerError).field;
  }
  return undefined;
};

describe('notification rule input', () => {
  it('should fill in each kind defaults and refuse a field the kind does not take', () => {
    expect(ruleParams({ name: 'r', kind: K.FINAL_FAILURE })).toEqual({ target: 'ANY' });
    expect(ruleParams({ name: 'r', kind: K.LATE_START })).toEqual({ thresholdMs: 500 });
    expect(ruleParams({ name: 'r', kind: K.HANDLER_UNAVAILABLE })).toEqual({ thresholdMs: 60_000 });
    expect(ruleParams({ name: 'r', kind: K.DEADLINE, finishBy: '06:00' })).toEqual({
      finishBy: '06:00',
      timeZone: 'UTC',
    });
    expect(fieldOf(() => ruleParams({ name: 'r', kind: K.RECOVERY, count: 3 }))).toBe('count');
    expect(fieldOf(() => ruleParams({ name: 'r', kind: K.HANDLER_UNAVAILABLE, jobCode: 'j' }))).toBe('jobCode');
    expect(fieldOf(() => ruleParams({ name: 'r', kind: K.HANDLER_UNAVAILABLE, thresholdMs: 500 }))).toBe('thresholdMs');
    expect(fieldOf(() => ruleParams({ name: 'r', kind: K.DEADLINE }))).toBe('withinMs');
    expect(fieldOf(() => ruleParams({ name: 'r', kind: K.DEADLINE, withinMs: 5000, timeZone: 'UTC' }))).toBe(
      'timeZone',
    );
    expect(fieldOf(() => ruleParams({ name: 'r', kind: K.DEADLINE, finishBy: '6:00' }))).toBe('finishBy');
    expect(fieldOf(() => ruleParams({ name: 'r', kind: K.DEADLINE, finishBy: '06:00', timeZone: 'No/Where' }))).toBe(
      'timeZone',
    );
  });

  it('should put a finishBy deadline at the first such wall time after the fire, in the zone, across DST', () => {
    const at = (s: string) => Date.parse(s);
    const paris = { finishBy: '06:00', timeZone: 'Europe/Paris' };
    expect(deadlineOf(paris, at('2026-12-01T01:00:00Z'))).toBe(at('2026-12-01T05:00:00Z'));
    // A fire at 06:00 local must finish by the next day's 06:00.
    expect(deadlineOf(paris, at('2026-12-01T05:00:00Z'))).toBe(at('2026-12-02T05:00:00Z'));
    // Summer time: 06:00 in Paris is 04:00 UTC.
    expect(deadlineOf(paris, at('2026-07-01T01:00:00Z'))).toBe(at('2026-07-01T04:00:00Z'));
    // The night the clocks go forward (29 March 2026), 06:00 exists and is 04:00 UTC.
    expect(deadlineOf(paris, at('2026-03-29T00:30:00Z'))).toBe(at('2026-03-29T04:00:00Z'));
    expect(deadlineOf({ withinMs: 7_200_000 }, 1000)).toBe(7_201_000);
    expect(deadlineOf({ finishBy: 'junk' }, 1000)).toBeNull();
  });

  it('should check channels item by item, naming the field', () => {
    expect(checkChannels(undefined)).toEqual([]);
    expect(checkChannels([{ type: 'email', to: ['a@example.com', 'a@example.com'] }])).toEqual([
      { type: 'email', to: ['a@example.com'] },
    ]);
    expect(fieldOf(() => checkChannels({}))).toBe('channels');
    expect(fieldOf(() => checkChannels(Array.from({ length: 6 }, () => ({ type: 'chat', url: 'x' }))))).toBe(
      'channels',
    );
    expect(fieldOf(() => checkChannels([{ type: 'chat' }]))).toBe('channels[0].url');
    expect(fieldOf(() => checkChannels([{ type: 'chat', url: 'u', to: [] }]))).toBe('channels[0].to');
    expect(fieldOf(() => checkChannels([{ type: 'email', to: [] }]))).toBe('channels[0].to');
    expect(fieldOf(() => checkChannels([{ type: 'email', to: ['x@y.z', 'Bob <b@example.com>'] }]))).toBe(
      'channels[0].to[1]',
    );
    expect(fieldOf(() => checkChannels([null]))).toBe('channels[0]');
  });
});
