import { cutChars, excerpt, fitJson, jsonBytes } from './limits.js';

describe('limits helpers', () => {
  it('jsonBytes counts UTF-8 bytes of the JSON text', () => {
    expect(jsonBytes({ a: 'é' })).toBe(Buffer.byteLength('{"a":"é"}'));
    expect(jsonBytes('😀')).toBe(6);
    expect(jsonBytes(undefined)).toBe(0);
  });

  it('cutChars never ends on half a surrogate pair; excerpt marks the cut', () => {
    expect(cutChars('ab😀', 3)).toBe('ab');
    expect(cutChars('abc', 3)).toBe('abc');
    expect(excerpt('abcdef', 4)).toBe('abc…');
    expect(excerpt('abc', 4)).toBe('abc');
  });

  it('fitJson keeps what fits and replaces the largest fields of what does not', () => {
    const small = { a: 1 };
    expect(fitJson(small, 100)).toBe(small);
    const big = { id: 'j1', params: { blob: 'x'.repeat(70_000) }, shardParams: [{ y: 'y'.repeat(30_000) }], code: 'c' };
    const fitted = fitJson(big, 65_535) as Record<string, unknown>;
    expect(jsonBytes(fitted)).toBeLessThanOrEqual(65_535);
    expect(fitted).toEqual({
      id: 'j1',
      params: { omittedBytes: jsonBytes(big.params) },
      shardParams: big.shardParams,
      code: 'c',
    });
    expect(fitJson('z'.repeat(100), 10)).toEqual({ omittedBytes: 102 });
    expect(fitJson([1, 2, 3], 3)).toEqual({ omittedBytes: 7 });
  });
});
