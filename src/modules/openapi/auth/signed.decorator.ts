import { applyDecorators } from '@nestjs/common';
import {
  ApiPayloadTooLargeResponse,
  ApiSecurity,
  ApiTooManyRequestsResponse,
  ApiUnauthorizedResponse,
  ApiUnsupportedMediaTypeResponse,
} from '@nestjs/swagger';

const integerHeader = (description: string) => ({ description, schema: { type: 'integer' as const } });

/**
 * Documents a controller as signed, bounded and rate-limited (the SignedRequestMiddleware enforces it on
 * every /api route; README "Signing", "Rate limits").
 */
export const Signed = () =>
  applyDecorators(
    ApiSecurity('X-App-Id'),
    ApiSecurity('X-Timestamp'),
    ApiSecurity('X-Nonce'),
    ApiSecurity('X-Signature'),
    ApiUnauthorizedResponse({
      description:
        'Missing or invalid signature, an unknown app, a replayed nonce, or an old (v1) signature: always the same ' +
        'problem+json.',
    }),
    ApiPayloadTooLargeResponse({ description: 'Body over 2 MiB (problem+json); the connection is closed.' }),
    ApiUnsupportedMediaTypeResponse({
      description: 'Body not application/json (utf-8), or with a Content-Encoding other than identity (problem+json).',
    }),
    ApiTooManyRequestsResponse({
      description: "Over the app's request rate limit (problem+json, code RATE_LIMITED).",
      headers: {
        'Retry-After': integerHeader('Seconds to wait (at least 1).'),
        'RateLimit-Limit': integerHeader(
          "Size of the app's token bucket (the burst); on every answer to a limited app.",
        ),
        'RateLimit-Remaining': integerHeader('Requests left in the bucket now.'),
        'RateLimit-Reset': integerHeader('Seconds until the bucket is full again.'),
        'RateLimit-Policy': {
          description: '<burst>;w=<seconds to refill it> (draft-ietf-httpapi-ratelimit-headers-06).',
          schema: { type: 'string' },
        },
      },
    }),
  );
