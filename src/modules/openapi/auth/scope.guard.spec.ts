import { ExecutionContext } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { ErrorCode, ForbiddenError, SchedulerError } from '../../../common/index.js';
import { Scope } from '../../metadata/index.js';
import type { ResolvedClient } from './api-client.service.js';
import { AnySignedCaller, RequireScope, ScopeGuard } from './scope.guard.js';

class Routes {
  @RequireScope(Scope.JOBS_WRITE) write(): void {}
  @RequireScope(Scope.SHELL) shell(): void {}
  undecorated(): void {}
  @AnySignedCaller() anySigned(): void {}
}

/** A request to `Routes.<route>`, signed by a client with `scopes` (or not signed). */
function context(route: keyof Routes, scopes?: Scope[]): ExecutionContext {
  const req = scopes
    ? { appId: 'app-1', client: { appId: 'app-1', scopes: new Set(scopes) } as unknown as ResolvedClient }
    : {};
  return {
    getHandler: () => Routes.prototype[route],
    getClass: () => Routes,
    switchToHttp: () => ({ getRequest: () => req }),
  } as unknown as ExecutionContext;
}

function refusal(route: keyof Routes, scopes?: Scope[]): SchedulerError | undefined {
  try {
    new ScopeGuard(new Reflector()).canActivate(context(route, scopes));
    return undefined;
  } catch (err) {
    return err as SchedulerError;
  }
}

describe('ScopeGuard (README "Tenancy and scopes")', () => {
  it('should pass a caller holding the scope, or admin (which implies every scope but shell)', () => {
    expect(refusal('write', [Scope.JOBS_WRITE])).toBeUndefined();
    expect(refusal('write', [Scope.ADMIN])).toBeUndefined();
    expect(refusal('shell', [Scope.SHELL])).toBeUndefined();
  });

  it('should refuse with a 403 naming the scope otherwise; admin does not imply shell', () => {
    expect(refusal('write', [Scope.JOBS_READ, Scope.SHELL])).toEqual(
      new ForbiddenError('this request needs the scope jobs:write', Scope.JOBS_WRITE),
    );
    expect((refusal('shell', [Scope.ADMIN]) as ForbiddenError).scope).toBe(Scope.SHELL);
  });

  it('should fail closed: a signed route without @RequireScope needs admin', () => {
    expect(
      (
        refusal(
          'undecorated',
          Object.values(Scope).filter((s) => s !== Scope.ADMIN),
        ) as ForbiddenError
      ).scope,
    ).toBe(Scope.ADMIN);
    expect(refusal('undecorated', [Scope.ADMIN])).toBeUndefined();
  });

  it('should let any signed caller through an @AnySignedCaller route, one with no scope at all too', () => {
    expect(refusal('anySigned', [])).toBeUndefined();
    expect(refusal('anySigned', [Scope.TASKS_READ])).toBeUndefined();
    expect(refusal('anySigned', [Scope.ADMIN])).toBeUndefined();
  });

  it('should refuse an @AnySignedCaller route that reached it unsigned (401), as any signed route', () => {
    expect(refusal('anySigned')?.code).toBe(ErrorCode.UNAUTHORIZED);
  });

  it(
    'should leave unsigned routes without a scope alone (health, metrics), and refuse a scoped one that reached it ' +
      'unsigned (401)',
    () => {
      expect(refusal('undecorated')).toBeUndefined();
      expect(refusal('write')?.code).toBe(ErrorCode.UNAUTHORIZED);
    },
  );
});
