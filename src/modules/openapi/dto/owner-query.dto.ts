import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsOptional, IsString, Matches } from 'class-validator';
import { APP_ID_PATTERN } from '../auth/api-client.service.js';
import { HANDLER_MESSAGE } from './callback.dto.js';
import { ListQueryDto } from './job.dto.js';
import { NAME_PATTERN } from './validators.js';

const APP_ID_DESCRIPTION =
  "Admins only: the app that owns the job or task (another app's id without the admin scope is a 403). " +
  'Without it an admin names a job by id, or by code: its own job of that code first, else the one app that has it ' +
  '(several: a 409 asking for this).';

/** `?appId=` of a route naming one job or task. */
export class OwnerQueryDto {
  @ApiPropertyOptional({ description: APP_ID_DESCRIPTION })
  @IsOptional()
  @IsString()
  @Matches(APP_ID_PATTERN, { message: 'appId must be 3-64 of [A-Za-z0-9_.-]' })
  appId?: string;
}

/** A paged list query with `?appId=` (GET /api/jobs: an admin lists every app's jobs, or this app's). */
export class OwnerListQueryDto extends ListQueryDto {
  @ApiPropertyOptional({
    description:
      "Admins only. GET /api/jobs: list this app's jobs (default for an admin: every app's; for anyone else: its " +
      'own). ' +
      "A job's instances: the app that owns the job (another app's id without the admin scope is a 403).",
  })
  @IsOptional()
  @IsString()
  @Matches(APP_ID_PATTERN, { message: 'appId must be 3-64 of [A-Za-z0-9_.-]' })
  appId?: string;
}

/** `?appId=` of the /api/callbacks routes. */
export class CallbackOwnerQueryDto {
  @ApiPropertyOptional({
    description:
      "Admins only: the app whose callback registrations these are (another app's id without the admin scope is a " +
      '403; an app with no client, at register, a 404). Omitted: the calling app.',
  })
  @IsOptional()
  @IsString()
  @Matches(APP_ID_PATTERN, { message: 'appId must be 3-64 of [A-Za-z0-9_.-]' })
  appId?: string;
}

/** `?handler=&appId=` of DELETE /api/callbacks. */
export class CallbackHandlerQueryDto extends CallbackOwnerQueryDto {
  @ApiPropertyOptional({ description: "The handler whose registration to remove; omitted: the app's default." })
  @IsOptional()
  @IsString()
  @Matches(NAME_PATTERN, { message: HANDLER_MESSAGE })
  handler?: string;
}

