import { attemptSpanId, childContext, formatTraceparent, instanceTrace, parseTraceparent } from './trace-context.js';

const T = '4bf92f3577b34da6a3ce929d0e0e4736';
const P = '00f067aa0ba902b7';

describe('W3C traceparent', () => {
  it('should parse a version-00 header and format it back', () => {
    const ctx = parseTraceparent(`00-${T}-${P}-01`);
    expect(ctx).toEqual({ traceId: T, spanId: P, flags: '01' });
    expect(formatTraceparent(ctx!)).toBe(`00-${T}-${P}-01`);
  });

  it.each([
    ['absent', undefined],
    ['upper-case hex', `00-${T.toUpperCase()}-${P}-01`],
    ['all-zero trace id', `00-${'0'.repeat(32)}-${P}-01`],
    ['all-zero parent id', `00-${T}-${'0'.repeat(16)}-01`],
    ['version ff', `ff-${T}-${P}-01`],
    ['a short trace id', `00-${T.slice(1)}-${P}-01`],
    ['version 00 with more after it', `00-${T}-${P}-01-extra`],
    ['two headers joined', `00-${T}-${P}-01, 00-${T}-${P}-01`],
    ['not a string', ['x']],
  ])('should refuse %s (a new trace is started instead)', (_what, header) => {
    expect(parseTraceparent(header)).toBeNull();
  });

  it("should read a later version's four fields and keep only its sampled flag", () => {
    expect(parseTraceparent(`cc-${T}-${P}-0b-what-follows`)).toEqual({ traceId: T, spanId: P, flags: '01' });
  });

  it('should make a child span of the same trace, or a new sampled trace', () => {
    const child = childContext({ traceId: T, spanId: P, flags: '00' });
    expect(child).toMatchObject({ traceId: T, flags: '00' });
    expect(child.spanId).toMatch(/^[0-9a-f]{16}$/);
    expect(child.spanId).not.toBe(P);
    expect(childContext(null, T)).toMatchObject({ traceId: T, flags: '01' });
  });

  it("should name an attempt's span the same from its instance and token, and read rows from before the column", () => {
    expect(attemptSpanId('i-1', 3)).toBe(attemptSpanId('i-1', 3));
    expect(attemptSpanId('i-1', 3)).not.toBe(attemptSpanId('i-1', 4));
    expect(instanceTrace({ traceId: T, traceparent: null })).toEqual({ traceId: T, spanId: T.slice(16), flags: '01' });
  });
});
