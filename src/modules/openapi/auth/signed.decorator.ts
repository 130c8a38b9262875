import { applyDecorators, createParamDecorator, ExecutionContext } from '@nestjs/common';
import { ApiSecurity, ApiUnauthorizedResponse } from '@nestjs/swagger';
import { SignedRequest } from './signature.guard.js';

/** Documents a controller as signed (the global SignatureGuard enforces it on every /api route). */
export const Signed = () =>
  applyDecorators(
    ApiSecurity('X-App-Id'),
    ApiSecurity('X-Timestamp'),
    ApiSecurity('X-Nonce'),
    ApiSecurity('X-Signature'),
    ApiUnauthorizedResponse({ description: 'Missing or invalid signature (problem+json).' }),
  );

/** The caller's app id, set by the SignatureGuard. */
export const AppId = createParamDecorator((_: unknown, ctx: ExecutionContext) => ctx.switchToHttp().getRequest<SignedRequest>().appId);
