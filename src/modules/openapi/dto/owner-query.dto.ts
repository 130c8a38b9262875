import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsOptional, IsString, Length } from 'class-validator';
import { BOUNDS } from '../../../common/index.js';
import { APP_ID_MESSAGE, APP_ID_PATTERN } from '../auth/api-client.service.js';
import { ListQueryDto, PageCursor } from './list.dto.js';
import { HANDLER_MESSAGE, NAME_PATTERN, NameString } from './validators.js';

/** `?appId=` of an admin's request on another app's behalf, described by `description`. */
export function AppIdQuery(description: string): PropertyDecorator {
  return NameString(BOUNDS.appId, APP_ID_PATTERN, APP_ID_MESSAGE, { api: { description } });
}

/** `?appId=` of a route naming one job or task. */
export class OwnerQueryDto {
  @AppIdQuery(
    "Admins only: the app that owns the job or task (another app's id without the admin scope is a 403). " +
      'Without it an admin names a job by id, or by code: its own job of that code first, else the one app that ' +
      'has it (several: a 409 asking for this).',
  )
  appId?: string;
}

/** A paged list query with `?appId=` (GET /api/jobs: an admin lists every app's jobs, or this app's). */
export class OwnerListQueryDto extends ListQueryDto {
  @AppIdQuery(
    "Admins only. GET /api/jobs: list this app's jobs (default for an admin: every app's; for anyone else: its " +
      "own). A job's instances: the app that owns the job (another app's id without the admin scope is a 403).",
  )
  appId?: string;
}

/** GET /api/jobs query: a page of the jobs the caller sees, by code, kept by `q` and `enabled`. */
export class JobListQueryDto extends OwnerListQueryDto {
  @ApiPropertyOptional({
    minLength: BOUNDS.q.min,
    maxLength: BOUNDS.q.max,
    description:
      `Keep the jobs whose code, description or handler contains this text, in any case (${BOUNDS.q.min}-` +
      `${BOUNDS.q.max} characters; % and _ are plain characters).`,
  })
  @IsOptional()
  @IsString()
  @Length(BOUNDS.q.min, BOUNDS.q.max)
  q?: string;

  @ApiPropertyOptional({ enum: ['true', 'false'], description: 'Keep only enabled (true) or paused (false) jobs.' })
  @IsOptional()
  @IsIn(['true', 'false'], { message: 'enabled must be true or false' })
  enabled?: 'true' | 'false';
}

/** GET /api/jobs/{id}/instances query: offset/limit, or limit and the cursor of the page before. */
export class InstanceListQueryDto extends OwnerListQueryDto {
  @PageCursor()
  cursor?: string;
}

/** `?appId=` of the /api/callbacks routes. */
export class CallbackOwnerQueryDto {
  @AppIdQuery(
    "Admins only: the app whose callback registrations these are (another app's id without the admin scope is a " +
      '403; an app with no client, at register, a 404). Omitted: the calling app.',
  )
  appId?: string;
}

/** `?handler=&appId=` of DELETE /api/callbacks. */
export class CallbackHandlerQueryDto extends CallbackOwnerQueryDto {
  @NameString(BOUNDS.handler, NAME_PATTERN, HANDLER_MESSAGE, {
    api: { description: "The handler whose registration to remove; omitted: the app's default." },
  })
  handler?: string;
}
