import { ConsoleLogger, type LoggerService } from '@nestjs/common';
import type { JobHandlerImpl } from '../modules/handler/index.js';
import { httpFetch } from './http-fetch.js';

/** A handler as the plain entry point takes it: a `@JobHandler`-style object, or just its `execute` function. */
export type WorkerHandler = JobHandlerImpl | JobHandlerImpl['execute'];

/**
 * How an app worker connects and runs (docs/workers.md "The TypeScript SDK"). Every field left out is read from
 * the environment (names in {@link WORKER_ENV}), else its default. Durations are ms.
 */
export interface WorkerOptions {
  /** The api's base URL, e.g. `https://tickwheel.example.com` (TICKWHEEL_URL). */
  url?: string;
  /** The app (API client) id the worker signs as (TICKWHEEL_APP_ID); it needs the `worker` scope. */
  appId?: string;
  /** The app's secret (TICKWHEEL_SECRET). */
  secret?: string;
  /** Attempts run at once, 1..1000 (WORKER_CONCURRENCY, default 4): the node's advertised capacity. */
  concurrency?: number;
  /** On shutdown, how long running handlers may go on before they are aborted (WORKER_DRAIN_GRACE_MS, 10000). */
  drainGraceMs?: number;
  /** How long one claim call waits for work at most (WORKER_CLAIM_WAIT_MS, default: the api's maxClaimWaitMs). */
  claimWaitMs?: number;
  /** The `host` the node registers with (WORKER_HOST, default the machine's host name), at most 100 characters. */
  host?: string;
  /** Checkpoints larger than this (UTF-8 bytes of JSON) are refused before sending (default 65536). */
  checkpointMaxBytes?: number;
  /** `ctx.progress` reports are sent at most once per this per attempt; later ones coalesce (default 1000). */
  progressIntervalMs?: number;
  /** `ctx.log` lines are sent in batches at least this often (default 500). */
  logFlushMs?: number;
  /**
   * The logger of a context (`TickwheelWorker`, `job:<handler>:<traceId>`); default Nest's `ConsoleLogger` writing
   * JSON lines. The Nest module passes Nest's `Logger`, so the app's logger (pino, ...) applies.
   */
  loggerFor?: (context: string) => LoggerService;
  /** `fetch` to call the api with (tests, proxies); default {@link httpFetch} (node:http, keep-alive). */
  fetch?: typeof fetch;
}

/** The environment variables the worker reads when an option is left out. */
export const WORKER_ENV = {
  url: 'TICKWHEEL_URL',
  appId: 'TICKWHEEL_APP_ID',
  secret: 'TICKWHEEL_SECRET',
  concurrency: 'WORKER_CONCURRENCY',
  drainGraceMs: 'WORKER_DRAIN_GRACE_MS',
  claimWaitMs: 'WORKER_CLAIM_WAIT_MS',
  host: 'WORKER_HOST',
} as const;

/** The options with every field decided (`claimWaitMs` null: the api's maxClaimWaitMs). */
export interface ResolvedWorkerOptions {
  url: string;
  appId: string;
  secret: string;
  concurrency: number;
  drainGraceMs: number;
  claimWaitMs: number | null;
  host: string;
  checkpointMaxBytes: number;
  progressIntervalMs: number;
  logFlushMs: number;
  fetch: typeof fetch;
  loggerFor: (context: string) => LoggerService;
}

/**
 * `options` completed from `env` and the defaults.
 * @throws Error naming the setting when the url, app id or secret is missing, or a number is out of its range.
 */
export function resolveWorkerOptions(
  options: WorkerOptions,
  env: NodeJS.ProcessEnv = process.env,
  hostName = 'worker',
): ResolvedWorkerOptions {
  const text = (key: keyof typeof WORKER_ENV): string | undefined => {
    const given = options[key];
    if (given !== undefined && given !== null && given !== '') return String(given);
    const v = env[WORKER_ENV[key]];
    return v === undefined || v.trim() === '' ? undefined : v.trim();
  };
  const required = (key: 'url' | 'appId' | 'secret'): string => {
    const v = text(key);
    if (v === undefined) throw new Error(`tickwheel worker: ${key} is not set (option ${key} or ${WORKER_ENV[key]})`);
    return v;
  };
  const int = (key: 'concurrency' | 'drainGraceMs' | 'claimWaitMs', min: number, max: number) => {
    const v = text(key);
    if (v === undefined) return undefined;
    const n = Number(v);
    if (!Number.isInteger(n) || n < min || n > max) {
      throw new Error(`tickwheel worker: ${key} (${WORKER_ENV[key]}) must be an integer ${min}..${max}, got '${v}'`);
    }
    return n;
  };
  const url = required('url');
  try {
    new URL(url);
  } catch {
    throw new Error(`tickwheel worker: url (${WORKER_ENV.url}) '${url}' is not a URL`);
  }
  return {
    url,
    appId: required('appId'),
    secret: required('secret'),
    concurrency: int('concurrency', 1, 1000) ?? 4,
    drainGraceMs: int('drainGraceMs', 0, 3_600_000) ?? 10_000,
    claimWaitMs: int('claimWaitMs', 0, 600_000) ?? null,
    host: (text('host') ?? hostName).slice(0, 100),
    checkpointMaxBytes: options.checkpointMaxBytes ?? 65_536,
    progressIntervalMs: options.progressIntervalMs ?? 1_000,
    logFlushMs: options.logFlushMs ?? 500,
    fetch: options.fetch ?? httpFetch,
    loggerFor: options.loggerFor ?? ((context) => new ConsoleLogger(context, { json: true })),
  };
}
