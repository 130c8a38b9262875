import { ForbiddenError } from '../../common/index.js';
import { Scope } from '../metadata/index.js';

/**
 * Who acts (README "Tenancy and scopes"): the app id and scopes of its API client, and the client's cap on
 * unfinished tasks (null = the MAX_UNFINISHED_TASKS_PER_APP default, 0 = none).
 */
export interface Caller {
  readonly appId: string;
  readonly scopes: ReadonlySet<Scope>;
  readonly maxUnfinishedTasks: number | null;
}

/** Whether `caller` may do what `scope` allows: it has it, or it has `admin` (which implies all but `shell`). */
export function hasScope(caller: Pick<Caller, 'scopes'>, scope: Scope): boolean {
  return caller.scopes.has(scope) || (scope !== Scope.SHELL && caller.scopes.has(Scope.ADMIN));
}

/**
 * @param why appended to the detail ("this request needs the scope jobs:write: …").
 * @throws ForbiddenError (403 naming `scope`) when the caller lacks it.
 */
export function requireScope(caller: Pick<Caller, 'scopes'>, scope: Scope, why = ''): void {
  if (!hasScope(caller, scope))
    throw new ForbiddenError(`this request needs the scope ${scope}${why ? `: ${why}` : ''}`, scope);
}

/**
 * The app whose jobs or tasks a request names with `?appId=`: any app for an admin, only its own for
 * anyone else. Returns `appId`, or — when none is named — the caller's own app, or null for an admin
 * (every app of the namespace) when `adminSeesAll`.
 * @throws ForbiddenError (403 naming `admin`) for another app's id without `admin`.
 */
export function namedApp(caller: Caller, appId: string | undefined, adminSeesAll = false): string | null {
  if (appId !== undefined && appId !== caller.appId) {
    requireScope(caller, Scope.ADMIN, "only an admin names another app's jobs or tasks (appId)");
  }
  if (appId !== undefined) return appId;
  return adminSeesAll && hasScope(caller, Scope.ADMIN) ? null : caller.appId;
}
