import { BackoffKind } from '../metadata/index.js';
import { backoffDelayMs, boundResult, MAX_RESULT_CHARS } from './outcome.util.js';

describe('backoffDelayMs', () => {
  it('should wait the base delay every time when FIXED', () => {
    expect([1, 2, 5].map((a) => backoffDelayMs(1000, BackoffKind.FIXED, a))).toEqual([1000, 1000, 1000]);
  });

  it('should double per attempt within ±20 % jitter when EXPONENTIAL', () => {
    expect(backoffDelayMs(1000, BackoffKind.EXPONENTIAL, 1, () => 0.5)).toBe(1000);
    expect(backoffDelayMs(1000, BackoffKind.EXPONENTIAL, 3, () => 0.5)).toBe(4000);
    expect(backoffDelayMs(1000, BackoffKind.EXPONENTIAL, 3, () => 0)).toBe(3200);
    expect(backoffDelayMs(1000, BackoffKind.EXPONENTIAL, 3, () => 1)).toBe(4800);
  });

  it('should cap at one hour before jitter', () => {
    expect(backoffDelayMs(1000, BackoffKind.EXPONENTIAL, 40, () => 0.5)).toBe(3_600_000);
  });
});

describe('boundResult', () => {
  it('should keep small results and map undefined to null', () => {
    expect(boundResult({ a: 1 })).toEqual({ a: 1 });
    expect(boundResult(undefined)).toBeNull();
  });

  it('should replace a result over the limit by a truncated excerpt', () => {
    const r = boundResult({ s: 'x'.repeat(MAX_RESULT_CHARS) }) as { truncated: boolean; excerpt: string };
    expect(r.truncated).toBe(true);
    expect(r.excerpt).toHaveLength(MAX_RESULT_CHARS);
  });

  it('should not throw on a circular result', () => {
    const o: Record<string, unknown> = {};
    o.self = o;
    expect(boundResult(o)).toEqual({ unserialisable: expect.any(String) });
  });
});
