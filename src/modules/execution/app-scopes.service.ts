import { Inject, Injectable } from '@nestjs/common';
import { LRUCache } from 'lru-cache';
import { CLOCK, type Clock } from '../../common/index.js';
import { APP_CONFIG, type AppConfig } from '../../config/index.js';
import { ApiClientRepository, JobDefinitionRepository, type JobInstance, OWNERLESS_APP_ID, Scope, withDbRetry } from '../metadata/index.js';

/** How long an app's scopes read here are trusted, ms: a revoked `shell` scope stops runs claimed after that. */
export const APP_SCOPES_TTL_MS = 5_000;
/** How long a read of a client is retried through transient database errors (a lost connection) before the run fails. */
const READ_RETRY_MS = 5_000;
/** Apps whose scopes one executor keeps. */
const MAX_APPS = 10_000;
/** Handlers that run only for apps holding the scope of the same name (issue 9 point 3). */
const PRIVILEGED: ReadonlyMap<string, Scope> = new Map([['shell', Scope.SHELL]]);

/** What an executor needs to know of an instance's app: its scopes (none when disabled) and its egress allow-list. */
interface AppFacts {
  scopes: ReadonlySet<string>;
  egressAllow: readonly string[] | null;
  at: number;
}

/**
 * The executor's view of API clients (README "Tenancy and scopes", "Egress policy"), read from api_client
 * through a bounded cache of {@link APP_SCOPES_TTL_MS}:
 * - the run-time check of privileged handlers: the API refuses a `shell` submit from an app without the
 *   `shell` scope, and this checks again when an instance is about to run, so a scope revoked (or a client
 *   disabled) after the submit, or a job's schedule that keeps firing, stops at the next run;
 * - the app's own egress allow-list, which narrows the cluster's policy for its `http` calls.
 */
@Injectable()
export class AppScopes {
  private readonly cache = new LRUCache<string, AppFacts>({ max: MAX_APPS });

  constructor(
    private readonly clients: ApiClientRepository,
    private readonly jobs: JobDefinitionRepository,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  /**
   * Why instance `row` may not run, or null when it may: its handler is privileged and its app (the
   * instance's app_id; for a fire written before jobs had owners, its job's owner now) lacks the scope, or
   * has no enabled client. @throws the database's error when the scopes cannot be read.
   */
  async refusal(row: Pick<JobInstance, 'handler' | 'appId' | 'jobId'>): Promise<string | null> {
    const scope = PRIVILEGED.get(row.handler);
    if (scope === undefined) return null;
    const appId = await this.ownerOf(row);
    if ((await this.factsOf(appId)).scopes.has(scope)) return null;
    return `SCOPE_REVOKED: app '${appId}' does not hold the ${scope} scope (or its client is disabled): handler '${row.handler}' was not run`;
  }

  private async ownerOf(row: Pick<JobInstance, 'appId' | 'jobId'>): Promise<string> {
    if (row.appId !== OWNERLESS_APP_ID || !row.jobId) return row.appId;
    return (await this.jobs.findById(this.config.namespace, row.jobId))?.appId || row.appId;
  }

  /**
   * The egress allow-list of app `appId` (api_client.egress_allow), or null when it has none, or no client
   * (a fire of a job written before jobs had owners): its http calls are then bound by the cluster policy alone.
   * @throws the database's error when the client cannot be read.
   */
  async egressAllowOf(appId: string): Promise<readonly string[] | null> {
    return (await this.factsOf(appId)).egressAllow;
  }

  private async factsOf(appId: string): Promise<AppFacts> {
    const now = this.clock.now();
    const hit = this.cache.get(appId);
    if (hit && now - hit.at < APP_SCOPES_TTL_MS) return hit;
    // Every http run of an app reads this: a lost connection must not fail the run, only delay it.
    const client = await withDbRetry(() => this.clients.findByAppId(appId), READ_RETRY_MS);
    const facts: AppFacts = { scopes: new Set(client?.enabled ? (client.scopes ?? []) : []), egressAllow: client?.egressAllow ?? null, at: now };
    this.cache.set(appId, facts);
    return facts;
  }
}
