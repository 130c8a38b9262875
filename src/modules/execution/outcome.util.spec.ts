import { BackoffKind } from '../metadata/index.js';
import { backoffDelayMs, boundError, boundResult, MAX_ERROR_CHARS, MAX_RESULT_BYTES } from './outcome.util.js';

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

  it('should replace a result over the limit by a truncated excerpt whose stored JSON fits the limit', () => {
    for (const s of ['x'.repeat(MAX_RESULT_BYTES), '€'.repeat(40_000), '"'.repeat(40_000), '😀'.repeat(20_000)]) {
      const r = boundResult({ s }) as { truncated: boolean; excerpt: string };
      const stored = Buffer.byteLength(JSON.stringify(r), 'utf8');
      expect(r.truncated).toBe(true);
      expect(stored).toBeLessThanOrEqual(MAX_RESULT_BYTES);
      expect(stored).toBeGreaterThan(MAX_RESULT_BYTES - 16);
      const [, prefix, cut] = /^([\s\S]*) …\[(\d+) characters cut\]$/.exec(r.excerpt) ?? [];
      expect(JSON.stringify({ s }).startsWith(prefix)).toBe(true);
      expect(Number(cut)).toBe(JSON.stringify({ s }).length - prefix.length);
      expect(prefix).not.toMatch(/[\uD800-\uDBFF]$/);
    }
  });

  it('should keep a result whose JSON is exactly at the byte limit', () => {
    const s = 'x'.repeat(MAX_RESULT_BYTES - 2);
    expect(boundResult(s)).toBe(s);
  });

  it('should cut long error messages within the bound, marking the cut', () => {
    const cut = boundError('e'.repeat(100_000));
    expect(cut.length).toBeLessThanOrEqual(MAX_ERROR_CHARS);
    expect(cut).toBe(`${'e'.repeat(3975)} …[96025 characters cut]`);
    expect(boundError('short')).toBe('short');
  });

  it('should not throw on a circular result', () => {
    const o: Record<string, unknown> = {};
    o.self = o;
    expect(boundResult(o)).toEqual({ unserialisable: expect.any(String) });
  });

  it('should keep an unserialisable result storable whatever its property names (the message quotes them)', () => {
    const o: Record<string, unknown> = {};
    o['k'.repeat(100_000)] = o;
    const r = boundResult(o) as { unserialisable: string };
    expect(Buffer.byteLength(JSON.stringify(r), 'utf8')).toBeLessThanOrEqual(MAX_RESULT_BYTES);
    expect(r.unserialisable).toMatch(/circular/i);
  });

  it('should never end a cut error on half a surrogate pair', () => {
    expect(boundError(`${'e'.repeat(3976)}😀${'e'.repeat(100)}`)).toBe(`${'e'.repeat(3976)} …[102 characters cut]`);
  });
});
