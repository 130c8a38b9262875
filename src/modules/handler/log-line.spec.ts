import { cutLine, formatLogArgs, printableArgs } from './log-line.js';

describe('handler log lines', () => {
  it('should never throw at the handler, even for an Error whose stack getter throws', () => {
    const err = new Error('x');
    Object.defineProperty(err, 'stack', {
      get() {
        throw new Error('stack boom');
      },
    });
    expect(printableArgs(['before', err])).toBe('[tickwheel] log arguments could not be printed (Error)');
  });

  it('should join arguments like console.log, objects as JSON', () => {
    expect(formatLogArgs(['rows', 3, { a: [1, 'x'] }, null, undefined, true])).toBe(
      'rows 3 {"a":[1,"x"]} null undefined true',
    );
  });

  it('should write circular parts and BigInt without throwing, and keep shared siblings', () => {
    const shared = { k: 1 };
    const o: Record<string, unknown> = { n: 10n, left: shared, right: shared };
    o.self = o;
    expect(formatLogArgs([o])).toBe('{"n":"10","left":{"k":1},"right":{"k":1},"self":"[Circular]"}');
  });

  it('should write an Error as its stack', () => {
    const line = formatLogArgs(['failed:', new Error('boom')]);
    expect(line).toMatch(/^failed: Error: boom\n\s+at /);
  });

  it('should cut a long line with a marker naming the characters cut', () => {
    expect(cutLine('a'.repeat(40), 30)).toBe('aaaaaaaaa …[31 characters cut]');
    expect(cutLine('a'.repeat(100_000))).toHaveLength(3999);
    expect(cutLine('a'.repeat(100_000))).toMatch(/ …\[96025 characters cut\]$/);
    expect(cutLine('short', 4000)).toBe('short');
  });

  it('should neither split a surrogate pair nor keep a lone one', () => {
    expect(cutLine(`ab😀${'c'.repeat(30)}`, 24)).toBe('ab …[32 characters cut]');
    expect(cutLine('x\uD800y')).toBe('x\uFFFDy');
  });
});
