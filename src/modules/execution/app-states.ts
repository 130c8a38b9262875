import { Inject, Injectable, Logger, type OnApplicationShutdown, type OnModuleInit } from '@nestjs/common';
import { LRUCache } from 'lru-cache';
import { CLOCK, type Clock } from '../../common/index.js';
import { CLIENTS_CHANGED_CHANNEL, SIGNALS, type SignalPort } from '../coordination/index.js';
import { ApiClientRepository, withDbRetry } from '../metadata/index.js';

/**
 * How long an app's client read here is trusted, ms, when no change message arrives (Redis unreachable): a revoked
 * `shell` scope, or a disabled client, stops runs claimed after that at the latest.
 */
export const APP_STATES_TTL_MS = 5_000;
/** A copy older than this (and younger than the TTL) is served at once while one read renews it in the background. */
const RENEW_AFTER_MS = APP_STATES_TTL_MS / 2;
/** How long a client read is retried through transient database errors before the caller's step fails. */
const READ_RETRY_MS = 5_000;
const MAX_APPS = 10_000;

/** An app's client as execution and dispatch read it, at `at`: enabled, scopes (none when disabled), egress list. */
export interface AppFacts {
  /** False only for an existing client that is disabled (an app without a client, e.g. `tickwheel`, is not). */
  enabled: boolean;
  scopes: ReadonlySet<string>;
  egressAllow: readonly string[] | null;
  at: number;
}

/**
 * The API clients as executors, dispatch and the app worker routes see them (docs/tenancy.md "Disabled clients"):
 * one read per app per {@link APP_STATES_TTL_MS}, none per claim; a copy is dropped at once when any process
 * announces a change of the client on {@link CLIENTS_CHANGED_CHANNEL}.
 */
@Injectable()
export class AppStates implements OnModuleInit, OnApplicationShutdown {
  private readonly logger = new Logger(AppStates.name);
  private readonly cache = new LRUCache<string, AppFacts>({ max: MAX_APPS });
  /** The read in flight per app, which every caller missing the app shares. */
  private readonly reading = new Map<string, Promise<AppFacts>>();
  private unsubscribe: (() => Promise<void>) | null = null;

  constructor(
    private readonly clients: ApiClientRepository,
    @Inject(SIGNALS) private readonly signals: SignalPort,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async onModuleInit(): Promise<void> {
    this.unsubscribe = await this.signals
      .subscribe(CLIENTS_CHANGED_CHANNEL, (appId) => this.forget(appId))
      .catch((err: Error) => {
        this.logger.warn(`client changes reach this process within ${APP_STATES_TTL_MS} ms: ${err.message}`);
        return null;
      });
  }

  async onApplicationShutdown(): Promise<void> {
    await this.unsubscribe?.().catch(() => undefined);
  }

  /**
   * App `appId`'s client, cached: a copy younger than the TTL is returned at once (past half the TTL, one read renews
   * it meanwhile), so a busy app's claims and deliveries never wait on the database; callers missing it share one read.
   * @throws the database's error after {@link READ_RETRY_MS} of retries.
   */
  factsOf(appId: string): Promise<AppFacts> {
    const age = this.clock.now() - (this.cache.get(appId)?.at ?? -Infinity);
    if (age >= APP_STATES_TTL_MS) return this.read(appId);
    if (age >= RENEW_AFTER_MS) this.read(appId).catch(() => undefined); // the next caller past the TTL reads again
    return Promise.resolve(this.cache.get(appId) as AppFacts);
  }

  /** Drops the app's copy and its read in flight (which then stores nothing): the next caller reads anew. */
  private forget(appId: string): void {
    this.cache.delete(appId);
    this.reading.delete(appId);
  }

  /** The one read of app `appId`'s client in flight, started if none; stored unless {@link forget} came meanwhile. */
  private read(appId: string): Promise<AppFacts> {
    const pending = this.reading.get(appId);
    if (pending) return pending;
    const at = this.clock.now();
    // Runs and dispatches of an app read this: a lost connection must not fail them, only delay them.
    const read: Promise<AppFacts> = withDbRetry(() => this.clients.findByAppId(appId), READ_RETRY_MS)
      .then((client) => {
        const facts: AppFacts = {
          enabled: client?.enabled !== false,
          scopes: new Set(client?.enabled ? (client.scopes ?? []) : []),
          egressAllow: client?.egressAllow ?? null,
          at,
        };
        if (this.reading.get(appId) === read) this.cache.set(appId, facts);
        return facts;
      })
      .finally(() => {
        if (this.reading.get(appId) === read) this.reading.delete(appId);
      });
    this.reading.set(appId, read);
    return read;
  }

  /** The apps of `appIds` whose client is disabled (each app read at most once per TTL). @throws as factsOf. */
  async disabledAmong(appIds: Iterable<string>): Promise<Set<string>> {
    const out = new Set<string>();
    for (const appId of new Set(appIds)) if (!(await this.factsOf(appId)).enabled) out.add(appId);
    return out;
  }

  /** Every disabled client's app id, read now (the reconciler's pass leaves their rows out; few rows). */
  disabledApps(): Promise<string[]> {
    return this.clients.disabledIds();
  }
}
