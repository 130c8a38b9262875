import { ValidationError } from '../../../common/index.js';
import { cursorPage, decodeCursor, instantRange } from './list.dto.js';

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
