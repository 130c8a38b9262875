import { applyDecorators } from '@nestjs/common';
import { ApiSecurity } from '@nestjs/swagger';
import { ApiProblem } from '../dto/problem.dto.js';

const integerHeader = (description: string) => ({ description, schema: { type: 'integer' as const } });

/** The names of the four header schemes (buildOpenApiDocument declares them); a signed request needs all four. */
export const SIGNING_SCHEMES = ['X-App-Id', 'X-Timestamp', 'X-Nonce', 'X-Signature'] as const;

/** ONE security requirement naming the four schemes: all of them together, never any one alone. */
export const SIGNED_REQUIREMENT = Object.fromEntries(SIGNING_SCHEMES.map((s) => [s, [] as string[]]));

/** The RateLimit headers of a limited app's answer (README "Rate limits"). */
export const RATE_LIMIT_HEADERS = {
  'Retry-After': integerHeader('Seconds to wait before retrying (at least 1).'),
  'RateLimit-Limit': integerHeader("Size of the app's token bucket (the burst); on every answer to a limited app."),
  'RateLimit-Remaining': integerHeader('Requests left in the bucket now.'),
  'RateLimit-Reset': integerHeader('Seconds until the bucket is full again.'),
  'RateLimit-Policy': {
    description: '<burst>;w=<seconds to refill it> (draft-ietf-httpapi-ratelimit-headers-06).',
    schema: { type: 'string' as const },
  },
};

/**
 * Documents a controller as signed, bounded and rate-limited (the SignedRequestMiddleware enforces it on
 * every /api route; README "Signing", "Rate limits"): one security requirement with the four headers, and
 * the 401, 413, 415, 429, 500 and 503 problem+json answers every /api route may give.
 */
export const Signed = () =>
  applyDecorators(
    ApiSecurity(SIGNED_REQUIREMENT),
    ApiProblem(
      401,
      'Missing or invalid signature, an unknown or disabled app, a timestamp more than 300 s off, a replayed ' +
        'nonce, or an old (v1) signature: always the same problem+json (code UNAUTHORIZED).',
    ),
    ApiProblem(413, 'Body over 2 MiB (code PAYLOAD_TOO_LARGE); the connection is closed.'),
    ApiProblem(
      415,
      'Body not application/json (utf-8), or with a Content-Encoding other than identity ' +
        '(code UNSUPPORTED_MEDIA_TYPE).',
    ),
    ApiProblem(429, "Over the app's request rate limit (code RATE_LIMITED).", RATE_LIMIT_HEADERS),
    ApiProblem(500, 'An unexpected server error (code INTERNAL); the detail never holds a stack or a secret.'),
    ApiProblem(
      503,
      'The database or Redis cannot be reached or did not answer within STORAGE_TIMEOUT_MS (code ' +
        'STORAGE_UNAVAILABLE, `storage` names which); answered within 2 x STORAGE_TIMEOUT_MS. A write may have ' +
        'committed: resend a submit with the same requestId, other writes with an Idempotency-Key.',
      { 'Retry-After': integerHeader('Seconds to wait before sending again (5).') },
    ),
  );
