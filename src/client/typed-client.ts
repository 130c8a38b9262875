import createClient, { type Client } from 'openapi-fetch';
import type { components, operations, paths } from './openapi-types.js';
import { type RetryPolicy, signingFetch } from './retry.js';

export type { components, operations, paths };
/** The spec's schemas by name, e.g. `Schemas['TaskView']` (names as in openapi/openapi.json). */
export type Schemas = components['schemas'];

/** The typed client: `GET`, `POST`, `PATCH`, `DELETE`... with paths, parameters, bodies and answers of the spec. */
export type TypedTickwheelClient = Client<paths>;

/** Where and as whom the typed client calls, and how it tries again; times in ms. */
export interface TypedClientOptions {
  /** The server's origin (and path prefix, if any), e.g. `http://localhost:3000`. */
  baseUrl: string;
  appId: string;
  secret: string;
  /** Tries after the first of an idempotent call, 0..10 (default 2). */
  retries?: number;
  /** First backoff delay (default 200); it doubles per try up to `retryMaxDelayMs`. */
  retryBaseDelayMs?: number;
  /** Longest wait before a try (default 5000); a longer `Retry-After` is not waited for. */
  retryMaxDelayMs?: number;
  /** Adds an `Idempotency-Key` to mutating /api/jobs calls without one, so they are retried (default true). */
  jobIdempotencyKeys?: boolean;
  /** The fetch that sends each signed try (default globalThis.fetch). */
  fetch?: (request: Request) => Promise<Response>;
  /** Clock of X-Timestamp, epoch ms (default Date.now). */
  now?: () => number;
  /** How a backoff waits (default a timer); tests pass their own. */
  sleep?: (ms: number) => Promise<void>;
}

const wait = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

function bounded(name: string, value: number | undefined, fallback: number, max: number): number {
  const v = value ?? fallback;
  if (!Number.isInteger(v) || v < 0 || v > max) throw new RangeError(`${name} must be an integer 0..${max}`);
  return v;
}

/**
 * A typed client of the Tickwheel API (openapi-fetch over the types generated from openapi/openapi.json) that
 * signs every request (v2, docs/api.md "Signing") and tries idempotent calls again (src/client/retry.ts).
 * Calls answer `{ data, error, response }`; `unwrap` turns an error into a thrown `ProblemError`.
 * @throws TypeError for a baseUrl that is not an absolute URL or an empty appId or secret; RangeError for bounds.
 */
export function createTickwheelClient(options: TypedClientOptions): TypedTickwheelClient {
  const { appId, secret, now } = options;
  if (!URL.canParse(options.baseUrl)) throw new TypeError(`baseUrl must be an absolute URL: ${options.baseUrl}`);
  const base = new URL(options.baseUrl);
  if (!appId || !secret) throw new TypeError('appId and secret are required');
  const policy: RetryPolicy = {
    retries: bounded('retries', options.retries, 2, 10),
    baseDelayMs: bounded('retryBaseDelayMs', options.retryBaseDelayMs, 200, 60_000),
    maxDelayMs: bounded('retryMaxDelayMs', options.retryMaxDelayMs, 5_000, 600_000),
    sleep: options.sleep ?? wait,
    random: Math.random,
  };
  const send = options.fetch ?? ((request: Request) => globalThis.fetch(request));
  return createClient<paths>({
    baseUrl: base.href.replace(/\/+$/, ''),
    fetch: signingFetch({
      creds: { appId, secret, now },
      policy,
      fetch: send,
      jobIdempotencyKeys: options.jobIdempotencyKeys ?? true,
    }),
  });
}
