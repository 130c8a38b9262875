import { PATH_METADATA } from '@nestjs/common/constants.js';
import type { OpenAPIObject } from '@nestjs/swagger';
import { ValidationError } from '../../../common/index.js';
import { problemContent } from '../dto/problem.dto.js';

/** The request header (draft-ietf-httpapi-idempotency-key-header), as Node hands it (lower case). */
export const IDEMPOTENCY_KEY_HEADER = 'Idempotency-Key';
/** The answer header of a replayed answer. */
export const IDEMPOTENCY_REPLAYED_HEADER = 'Idempotency-Replayed';

/**
 * The routes an Idempotency-Key makes idempotent (docs/api.md "Idempotency"), as `METHOD /path/{param}`:
 * every mutating /api route except task submission (tasks have requestId) and the routes that answer a secret.
 */
export const KEYED_ROUTES: ReadonlySet<string> = new Set([
  'POST /api/jobs',
  'PATCH /api/jobs/{id}',
  'DELETE /api/jobs/{id}',
  'POST /api/jobs/import-crontab',
  'POST /api/jobs/{id}/pause',
  'POST /api/jobs/{id}/resume',
  'POST /api/jobs/{id}/trigger',
  'POST /api/jobs/{id}/backfill',
  'POST /api/jobs/{id}/instances/{instanceId}/cancel',
  'POST /api/jobs/{id}/instances/{instanceId}/callback/redeliver',
  'POST /api/tasks/{requestId}/cancel',
  'POST /api/tasks/{requestId}/callback/redeliver',
  'POST /api/callbacks/register',
  'POST /api/callbacks/hosts/redeliver',
  'DELETE /api/callbacks',
  'PATCH /api/clients/{appId}',
]);

const USE_REQUEST_ID = 'a task submission is made idempotent by its requestId, not by an Idempotency-Key';
const SECRET =
  'this route answers a secret, which is never stored: it cannot be replayed, so it takes no Idempotency-Key';

/**
 * Mutating routes that refuse an Idempotency-Key with a 400 (rather than ignoring it and leaving the caller to
 * believe a retry is safe), with the reason. Other routes (reads) ignore the header.
 */
export const UNKEYED_ROUTES: ReadonlyMap<string, string> = new Map([
  ['POST /api/tasks', USE_REQUEST_ID],
  ['POST /api/tasks/batch', USE_REQUEST_ID],
  ['POST /api/clients', SECRET],
  ['POST /api/clients/{appId}/rotate-secret', SECRET],
]);

/** `METHOD /path/{param}` of a Nest route handler, from its controller's and its own path metadata. */
export function routeOf(method: string, controller: object, handler: object): string {
  const part = (target: object) => {
    const p = Reflect.getMetadata(PATH_METADATA, target) as string | string[] | undefined;
    return (Array.isArray(p) ? p[0] : p) ?? '';
  };
  const path = `/${part(controller)}/${part(handler)}`
    .replace(/\/+/g, '/')
    .replace(/(.)\/$/, '$1')
    .replace(/:([A-Za-z0-9_]+)/g, '{$1}');
  return `${method.toUpperCase()} ${path}`;
}

const PRINTABLE = /^[\x20-\x7e]{1,255}$/;
const QUOTED = /^"([\x20\x21\x23-\x5b\x5d-\x7e]{1,255})"$/;
/**
 * A key may not start or end with a space. MariaDB's and MySQL's utf8mb4_bin (the column's collation since
 * IdempotencyKeyBinary1800000001000) is a PAD SPACE collation: `K ` equalled `K` there, while SQLite compares bytes.
 * With no edge spaces, both compare exactly.
 */
const EDGE_SPACE = /^ | $/;
/** The bare key as the OpenAPI document states it: printable ASCII, no space first or last. */
const KEY_PATTERN = '^[\\x21-\\x7E]([\\x20-\\x7E]*[\\x21-\\x7E])?$';

/**
 * The key of an `Idempotency-Key` header: 1-255 printable ASCII characters, sent bare or as the draft's
 * structured-field string (`"…"`, whose quotes are not part of the key). `raw` is the header's values, one per
 * header line (Node's `headersDistinct`): two lines are refused, not joined into the key `a, b`.
 * @throws ValidationError(`Idempotency-Key`) for anything else (empty, too long, a control or non-ASCII byte,
 * a space first or last, the header twice).
 */
export function parseIdempotencyKey(raw: string | string[]): string {
  if (Array.isArray(raw) && raw.length > 1) {
    throw new ValidationError(IDEMPOTENCY_KEY_HEADER, 'Idempotency-Key must be sent once');
  }
  const value = Array.isArray(raw) ? (raw[0] ?? '') : raw;
  const key = QUOTED.exec(value)?.[1] ?? (PRINTABLE.test(value) && !value.startsWith('"') ? value : undefined);
  if (key !== undefined && !EDGE_SPACE.test(key)) return key;
  throw new ValidationError(
    IDEMPOTENCY_KEY_HEADER,
    'Idempotency-Key must be 1-255 printable ASCII characters (bare or in double quotes), ' +
      'not starting or ending with a space',
  );
}

const HEADER_DESCRIPTION =
  'Makes this request idempotent (docs/api.md "Idempotency"): 1-255 printable ASCII characters, no space first ' +
  'or last, unique per app ' +
  '(e.g. a UUID), kept IDEMPOTENCY_KEY_TTL_MS (default 24 h). The first 2xx answer is stored; the same key with ' +
  'the same method, path, query and body gets it again (with Idempotency-Replayed: true) without running again. ' +
  'An error answer is not stored: a retry with the key runs again.';

const CONFLICT_DESCRIPTION =
  'Idempotency-Key conflict (field Idempotency-Key): code IDEMPOTENCY_KEY_REUSED when the key was used with ' +
  'another request (method, path, query or body), nothing was changed; code IDEMPOTENCY_IN_PROGRESS (with ' +
  'Retry-After) when the first request with the key was still running after a 10 s wait. Other 409s of the ' +
  'route keep their own codes.';

const TOO_MANY_KEYS =
  'code TOO_MANY_IDEMPOTENCY_KEYS (field Idempotency-Key, with Retry-After) when a new key would take the app past ' +
  'IDEMPOTENCY_KEYS_PER_APP (default 10,000) unexpired keys; nothing ran. A replay of a key it holds still works.';

const BAD_KEY_DESCRIPTION =
  'A malformed Idempotency-Key (code VALIDATION, field Idempotency-Key): empty, over 255 characters, not ' +
  'printable ASCII, or starting or ending with a space.';

type Operation = {
  parameters?: Array<Record<string, unknown>>;
  responses: Record<string, Record<string, unknown>>;
};

/**
 * Documents Idempotency-Key on exactly the {@link KEYED_ROUTES} operations of `doc` (in place): the optional
 * header parameter, the Idempotency-Replayed header on their 2xx answers, the 400 and 409 problem answers (a route's
 * own 409 keeps its text, with the key's cases added). Called by buildOpenApiDocument.
 */
export function documentIdempotency(doc: OpenAPIObject): void {
  for (const [path, item] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(item as Record<string, Operation>)) {
      if (!KEYED_ROUTES.has(`${method.toUpperCase()} ${path}`)) continue;
      op.parameters = [
        ...(op.parameters ?? []),
        {
          name: IDEMPOTENCY_KEY_HEADER,
          in: 'header',
          required: false,
          description: HEADER_DESCRIPTION,
          schema: { type: 'string', minLength: 1, maxLength: 255, pattern: KEY_PATTERN },
        },
      ];
      for (const [status, response] of Object.entries(op.responses)) {
        if (!/^2/.test(status)) continue;
        response.headers = {
          ...((response.headers as object | undefined) ?? {}),
          [IDEMPOTENCY_REPLAYED_HEADER]: {
            description: "'true' on an answer replayed for an Idempotency-Key (absent on a first answer).",
            schema: { type: 'string', enum: ['true'] },
          },
        };
      }
      const bad = op.responses['400']?.description;
      op.responses['400'] = {
        ...(op.responses['400'] ?? {}),
        description: bad ? `${String(bad)} Or: ${BAD_KEY_DESCRIPTION}` : BAD_KEY_DESCRIPTION,
        content: problemContent(),
      };
      const own = op.responses['409']?.description;
      op.responses['409'] = {
        description: own ? `${String(own)} Or: ${CONFLICT_DESCRIPTION}` : CONFLICT_DESCRIPTION,
        content: problemContent(),
        headers: {
          'Retry-After': {
            description: 'Seconds to wait before retrying (IDEMPOTENCY_IN_PROGRESS only).',
            schema: { type: 'integer' },
          },
        },
      };
      const limited = op.responses['429'];
      op.responses['429'] = {
        ...(limited ?? {}),
        description: limited?.description ? `${String(limited.description)} Or: ${TOO_MANY_KEYS}` : TOO_MANY_KEYS,
        content: problemContent(),
      };
    }
  }
}
