import { createParamDecorator, ExecutionContext } from '@nestjs/common';
import { type Caller } from '../../jobs/index.js';
import { type ResolvedClient } from './api-client.service.js';

/** What the signing step leaves on a request it accepted (SignatureGuard, or the signing middleware). */
export interface ClientRequest {
  appId?: string;
  client?: ResolvedClient;
}

/** The caller of a request the signing step accepted, or undefined (a route outside /api). */
export function callerOf(req: ClientRequest): Caller | undefined {
  const c = req.client;
  if (!c || !req.appId) return undefined;
  return { appId: req.appId, scopes: c.scopes, maxUnfinishedTasks: c.maxUnfinishedTasks };
}

/** The caller of a signed request (route parameter decorator). */
export const CurrentCaller = createParamDecorator((_: unknown, ctx: ExecutionContext) =>
  callerOf(ctx.switchToHttp().getRequest<ClientRequest>()),
);
