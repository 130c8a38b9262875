import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsOptional, IsString, MaxLength } from 'class-validator';
import { ValidationError } from '../../../common/index.js';
import { OwnerListQueryDto } from './owner-query.dto.js';
import { TaskViewDto } from './task.dto.js';

/** Longest `cursor` a list accepts (an encoded key is far shorter). */
export const MAX_CURSOR_LENGTH = 200;

export const CURSOR_DESCRIPTION =
  'Opaque: the `nextCursor` of the page before. Continues after the last item of that page (keyset, so rows ' +
  'added meanwhile neither repeat nor shift the pages); not combined with `offset`. A cursor this list did not ' +
  'give is a 400 naming `cursor`.';

/** `?cursor=` of the keyset-paged lists (instances, audit; docs/api.md "Lists"). */
export class CursorQueryDto {
  @ApiPropertyOptional({ description: CURSOR_DESCRIPTION, maxLength: MAX_CURSOR_LENGTH })
  @IsOptional()
  @IsString()
  @MaxLength(MAX_CURSOR_LENGTH)
  cursor?: string;
}

/**
 * The position after one item of a keyset list: a sort key (epoch ms) and a tie-break (the row's unique
 * remainder). Encoded as base64url of `<kind>:<key>:<tie>`, so a client treats it as opaque.
 */
export interface CursorKey {
  key: number;
  tie: string;
}

/** Encodes the position after an item of list `kind` ('i' instances, 'a' audit). */
export function encodeCursor(kind: string, at: CursorKey): string {
  return Buffer.from(`${kind}:${at.key}:${at.tie}`, 'utf8').toString('base64url');
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

/** GET /api/jobs/{id}/instances query: offset/limit, or limit and the cursor of the page before. */
export class InstanceListQueryDto extends OwnerListQueryDto {
  @ApiPropertyOptional({ description: CURSOR_DESCRIPTION, maxLength: MAX_CURSOR_LENGTH })
  @IsOptional()
  @IsString()
  @MaxLength(MAX_CURSOR_LENGTH)
  cursor?: string;
}
