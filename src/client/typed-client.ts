import createClient from 'openapi-fetch';
import type { ExactClient } from './exact-body.js';
import type { ClientAgent } from './http-transport.js';
import type { components, operations, paths } from './openapi-types.js';
import { type RetryOptions, retryPolicy, signingFetch } from './retry.js';

export type { components, operations, paths };
/** The spec's schemas by name, e.g. `Schemas['TaskView']` (names as in openapi/openapi.json). */
export type Schemas = components['schemas'];

/**
 * The typed client: `GET`, `POST`, `PATCH`, `DELETE`... with paths, parameters, bodies and answers of the spec. A body
 * field the spec does not declare (`timeoutMS` for `timeoutMs`) does not compile, as the server refuses it (400).
 */
export type TypedTickwheelClient = ExactClient;

/**
 * Where and as whom the typed client calls; times in ms. An idempotent call gets `retries` more tries (0..10, default
 * 2) after a backoff from `retryBaseDelayMs` (200) doubling up to `retryMaxDelayMs` (5000), which bounds Retry-After
 * too; `tryTimeoutMs` (default 0: none) ends a try that has not answered, to be tried again; `jobIdempotencyKeys`
 * (default true) gives mutating /api/jobs calls an `Idempotency-Key`, making them retried (retry.ts, docs/api.md).
 */
export interface TypedClientOptions extends RetryOptions {
  baseUrl: string;
  appId: string;
  secret: string;
  jobIdempotencyKeys?: boolean;
  /** Sends each signed try (default: node:http(s) through `agent`); `now`: X-Timestamp's clock (epoch ms). */
  fetch?: (request: Request) => Promise<Response>;
  now?: () => number;
  /** The node:http(s) agent of the keep-alive connections when no `fetch` is given (default: one per process). */
  agent?: ClientAgent;
}

/**
 * A typed client (openapi-fetch over the types of openapi/openapi.json) that signs every try (v2, docs/api.md) and
 * tries idempotent calls again (retry.ts); calls answer `{ data, error, response }`, `unwrap` throws a ProblemError.
 * @throws TypeError for a baseUrl that is not an absolute URL or an empty appId or secret; RangeError for bounds.
 */
export function createTickwheelClient(options: TypedClientOptions): TypedTickwheelClient {
  const { appId, secret, now } = options;
  if (!URL.canParse(options.baseUrl)) throw new TypeError(`baseUrl must be an absolute URL: ${options.baseUrl}`);
  const base = new URL(options.baseUrl);
  if (!appId || !secret) throw new TypeError('appId and secret are required');
  const policy = retryPolicy(options);
  const client = createClient<paths>({
    baseUrl: base.href.replace(/\/+$/, ''),
    fetch: signingFetch({
      creds: { appId, secret, now },
      policy,
      fetch: options.fetch,
      agent: options.agent,
      jobIdempotencyKeys: options.jobIdempotencyKeys ?? true,
    }),
  });
  return client as unknown as TypedTickwheelClient;
}
