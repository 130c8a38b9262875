import { ValidationError } from '../../../common/index.js';
import { createValidationPipe } from '../filters/validation.pipe.js';
import { cursorPage, decodeCursor, instantRange, ListQueryDto } from './list.dto.js';
import { LogQueryDto } from './log.dto.js';

describe('list paging helpers', () => {
  const rows = [1, 2, 3].map((n) => ({ at: n * 10, id: `r${n}` }));
  const keyOf = (r: { at: number; id: string }) => ({ key: r.at, tie: r.id });

  it('should show `limit` rows of those read one past it, and a cursor from the last one shown', () => {
    const { page, nextCursor } = cursorPage('t', rows, 2, keyOf);
    expect(page).toEqual(rows.slice(0, 2));
    expect(decodeCursor('t', nextCursor as string, /^r\d$/)).toEqual({ key: 20, tie: 'r2' });
    expect(cursorPage('t', rows, 3, keyOf)).toEqual({ page: rows, nextCursor: null });
  });

  it('should read from and to as epoch ms, and refuse a to before from naming to', () => {
    expect(instantRange({})).toEqual({ from: undefined, to: undefined });
    expect(instantRange({ from: '2026-12-01T00:00:00Z', to: '2026-12-01T00:00:01Z' })).toEqual({
      from: Date.UTC(2026, 11, 1),
      to: Date.UTC(2026, 11, 1) + 1000,
    });
    expect(() => instantRange({ from: '2026-12-02T00:00:00Z', to: '2026-12-01T00:00:00Z' })).toThrow(ValidationError);
  });
});

describe('query numbers', () => {
  const parse = (metatype: unknown, query: Record<string, unknown>) =>
    createValidationPipe()
      .transform(query, { type: 'query', metatype: metatype as never, data: '' })
      .catch((e: unknown) => e);

  it('should take decimal digits only, refusing hex, exponents, signs, spaces and empty values by name', async () => {
    expect(await parse(ListQueryDto, { offset: '16', limit: '007' })).toEqual({ offset: 16, limit: 7 });
    expect(await parse(LogQueryDto, { after: '0' })).toMatchObject({ after: 0 });
    // Number() took all of these: 0x10 was offset 16
    for (const bad of ['0x10', '0b1', '0o7', '1e1', '+5', '-0', ' 7', '7 ', '', '1_0', '１', ['1', '2']]) {
      const err = await parse(ListQueryDto, { offset: bad });
      expect([bad, err]).toEqual([bad, expect.any(ValidationError)]);
      expect((err as ValidationError).field).toBe('offset');
    }
    const tooBig = (await parse(ListQueryDto, { limit: '5000' })) as ValidationError;
    expect(tooBig.message).toMatch(/limit must not be greater/);
  });
});
