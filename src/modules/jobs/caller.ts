import { ForbiddenError } from '../../common/index.js';
import { Scope } from '../metadata/index.js';

/** Who acts: an app, its client's scopes and cap on unfinished tasks (null = the default, 0 = none). */
export interface Caller {
  readonly appId: string;
  readonly scopes: ReadonlySet<Scope>;
  readonly maxUnfinishedTasks: number | null;
}

/** Whether `caller` may do what `scope` allows: it has it, or it has `admin` (which implies all but `shell`). */
export function hasScope(caller: Pick<Caller, 'scopes'>, scope: Scope): boolean {
  return caller.scopes.has(scope) || (scope !== Scope.SHELL && caller.scopes.has(Scope.ADMIN));
}

/** @throws ForbiddenError naming `scope` when the caller lacks it; `why` is appended to the detail. */
export function requireScope(caller: Pick<Caller, 'scopes'>, scope: Scope, why = ''): void {
  if (!hasScope(caller, scope))
    throw new ForbiddenError(`this request needs the scope ${scope}${why ? `: ${why}` : ''}`, scope);
}

/**
 * The app a request names with `?appId=` (only an admin names another), else the caller's own, or null (every
 * app) for an admin when `adminSeesAll`. @throws ForbiddenError(admin) for another app's id without `admin`.
 */
export function namedApp(caller: Caller, appId: string | undefined, adminSeesAll = false): string | null {
  if (appId !== undefined && appId !== caller.appId) {
    requireScope(caller, Scope.ADMIN, "only an admin names another app's jobs or tasks (appId)");
  }
  if (appId !== undefined) return appId;
  return adminSeesAll && hasScope(caller, Scope.ADMIN) ? null : caller.appId;
}
