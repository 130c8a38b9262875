import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsISO8601, IsOptional, Matches } from 'class-validator';
import { BOUNDS } from '../../../common/index.js';
import { JobInstanceStatus } from '../../metadata/index.js';
import { CursorListQueryDto } from './list.dto.js';
import { AppIdQuery } from './owner-query.dto.js';
import { TaskViewDto } from './task.dto.js';
import { HANDLER_MESSAGE, NAME_PATTERN, NameString, stacked } from './validators.js';

const STATUSES = Object.values(JobInstanceStatus);

/** `?from=` / `?to=` of a list: an ISO-8601 instant with Z or an offset, `description` saying what it bounds. */
export function InstantQuery(field: string, description: string, example: string): PropertyDecorator {
  return stacked(
    ApiPropertyOptional({ description, example }),
    IsOptional(),
    IsISO8601({ strict: true }, { message: `${field} must be an ISO-8601 instant` }),
    Matches(/(Z|[+-]\d{2}:\d{2})$/, { message: `${field} needs Z or an offset` }),
  );
}

/** GET /api/tasks query: every filter given must hold; paged like the audit log. */
export class TaskListQueryDto extends CursorListQueryDto {
  @AppIdQuery(
    "Admins only: this app's tasks (default for an admin: every app's of the namespace; for anyone else: its own). " +
      "Another app's id without the admin scope is a 403.",
  )
  appId?: string;

  @ApiPropertyOptional({ enum: STATUSES, description: 'Tasks in this status now; an unknown one is a 400.' })
  @IsOptional()
  @IsIn(STATUSES, { message: `status must be one of ${STATUSES.join(', ')}` })
  status?: JobInstanceStatus;

  @NameString(BOUNDS.handler, NAME_PATTERN, HANDLER_MESSAGE, { api: { description: 'Tasks of this handler.' } })
  handler?: string;

  @InstantQuery('from', 'Tasks submitted at or after this ISO-8601 instant (createdAt).', '2026-12-01T00:00:00Z')
  from?: string;

  @InstantQuery('to', 'Tasks submitted at or before this ISO-8601 instant; not before `from`.', '2026-12-02T00:00:00Z')
  to?: string;
}

/** A page of tasks, newest first. */
export class TaskPageDto {
  @ApiProperty({ description: 'How many tasks match the filters in all (every page).' }) total: number;
  @ApiProperty({
    type: [TaskViewDto],
    description:
      'This page, newest createdAt first (then by instance id); each as GET /api/tasks/{requestId} without its ' +
      '`attempts` (callbackUrl and callback included).',
  })
  items: TaskViewDto[];
  @ApiProperty({
    type: String,
    nullable: true,
    description: 'Give as `cursor` for the next page; null when this page is the last.',
  })
  nextCursor: string | null;
}
