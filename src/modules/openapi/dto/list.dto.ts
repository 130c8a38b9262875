import { ApiProperty } from '@nestjs/swagger';
import { BOUNDS, ValidationError } from '../../../common/index.js';
import { TaskViewDto } from './task.dto.js';
import { BoundedInt, BoundedString } from './validators.js';

const { offset, limit, cursor } = BOUNDS;

export const CURSOR_DESCRIPTION =
  'Opaque: the `nextCursor` of the page before. Continues after the last item of that page (keyset, so rows ' +
  'added meanwhile neither repeat nor shift the pages); not combined with `offset`. A cursor this list did not ' +
  'give is a 400 naming `cursor`.';

/** `?offset=` of a paged list: items to skip (BOUNDS.offset); `note` follows the range in its description. */
export function PageOffset(note = ''): PropertyDecorator {
  return BoundedInt(offset, {
    query: true,
    api: { default: offset.default, description: `Items to skip, ${offset.min}-${offset.max}.${note}` },
  });
}

/** `?limit=` of a paged list: items per page (BOUNDS.limit). */
export function PageLimit(): PropertyDecorator {
  return BoundedInt(limit, {
    query: true,
    api: { default: limit.default, description: `Items to return, ${limit.min}-${limit.max}.` },
  });
}

/** `?cursor=` of a keyset-paged list (instances, audit, tasks, callback deliveries; docs/api.md "Lists"). */
export function PageCursor(): PropertyDecorator {
  return BoundedString(cursor, { api: { description: CURSOR_DESCRIPTION } });
}

/** The page a list query asks for, its omitted `offset` and `limit` at their defaults. */
export function pageOf(q: { offset?: number; limit?: number }): { offset: number; limit: number } {
  return { offset: q.offset ?? offset.default, limit: q.limit ?? limit.default };
}

/** Query of an offset-paged list route (GET /api/jobs, GET /api/jobs/{id}/instances, GET /api/clients). */
/** `?offset=&limit=&cursor=` of a list paged by cursor, or offset (the audit log, tasks, callback deliveries). */
export class CursorListQueryDto {
  @PageOffset(' Not with `cursor`.')
  offset?: number;

  @PageLimit()
  limit?: number;

  @PageCursor()
  cursor?: string;
}

export class ListQueryDto {
  @PageOffset()
  offset?: number;

  @PageLimit()
  limit?: number;
}

/**
 * The position after one item of a keyset list: a sort key (epoch ms) and a tie-break (the row's unique
 * remainder). Encoded as base64url of `<kind>:<key>:<tie>`, so a client treats it as opaque.
 */
export interface CursorKey {
  key: number;
  tie: string;
}

/** Encodes the position after an item of list `kind` ('i' instances, 'a' audit, 't' tasks, 'd' deliveries). */
export function encodeCursor(kind: string, at: CursorKey): string {
  return Buffer.from(`${kind}:${at.key}:${at.tie}`, 'utf8').toString('base64url');
}

/**
 * The page shown of `rows`, read one past `limit` (whether a next page exists), and the cursor of list `kind` for
 * the next page from its last row (`keyOf`), null when this page is the last.
 */
export function cursorPage<T>(
  kind: string,
  rows: T[],
  limit: number,
  keyOf: (last: T) => CursorKey,
): { page: T[]; nextCursor: string | null } {
  const page = rows.slice(0, limit);
  return { page, nextCursor: rows.length > limit ? encodeCursor(kind, keyOf(page[page.length - 1])) : null };
}

/** `?from=&to=` as epoch ms (each absent when not given). @throws ValidationError (to) when `to` is before `from`. */
export function instantRange(q: { from?: string; to?: string }): { from?: number; to?: number } {
  const from = q.from === undefined ? undefined : Date.parse(q.from);
  const to = q.to === undefined ? undefined : Date.parse(q.to);
  if (from !== undefined && to !== undefined && to < from)
    throw new ValidationError('to', '`to` must not be before `from`');
  return { from, to };
}

/**
 * Decodes a cursor of list `kind`; the tie-break must match `tie`.
 * @throws ValidationError (field cursor) for anything this list did not give, or one combined with an offset.
 */
export function decodeCursor(kind: string, cursor: string, tie: RegExp, offset?: number): CursorKey {
  if (offset !== undefined && offset !== 0) throw new ValidationError('cursor', 'give cursor or offset, not both');
  const bad = new ValidationError('cursor', 'cursor is not one this list gave (use nextCursor as it came)');
  if (!/^[A-Za-z0-9_-]+$/.test(cursor)) throw bad;
  const m = /^([a-z]):(\d{1,16}):(.+)$/.exec(Buffer.from(cursor, 'base64url').toString('utf8'));
  if (!m || m[1] !== kind || !tie.test(m[3]) || !Number.isSafeInteger(Number(m[2]))) throw bad;
  return { key: Number(m[2]), tie: m[3] };
}

/** A page of a job's instances (GET /api/jobs/{id}/instances), newest fire first. */
export class InstancePageDto {
  @ApiProperty({ description: 'Instances of the job in all (every page).' }) total: number;
  @ApiProperty({
    type: [TaskViewDto],
    description: 'Newest fire first (then highest shard); each as GET of one instance without its attempts.',
  })
  items: TaskViewDto[];
  @ApiProperty({
    type: String,
    nullable: true,
    description: 'Give as `cursor` for the next page; null when this page is the last.',
  })
  nextCursor: string | null;
}
