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
