import { Inject, Injectable } from '@nestjs/common';
import { LRUCache } from 'lru-cache';
import { CLOCK, type Clock } from '../../common/index.js';
import { APP_CONFIG, type AppConfig } from '../../config/index.js';
import {
  ApiClientRepository,
  JobDefinitionRepository,
  type JobInstance,
  OWNERLESS_APP_ID,
  Scope,
  withDbRetry,
} from '../metadata/index.js';

/** How long an app's scopes read here are trusted, ms: a revoked `shell` scope stops runs claimed after that. */
export const APP_SCOPES_TTL_MS = 5_000;
/** How long a client read is retried through transient database errors before the run fails. */
const READ_RETRY_MS = 5_000;
const MAX_APPS = 10_000;
/** Handlers that run only for apps holding the scope of the same name. */
const PRIVILEGED: ReadonlyMap<string, Scope> = new Map([['shell', Scope.SHELL]]);

/** An app's scopes (none when disabled) and egress allow-list, read at `at`. */
interface AppFacts {
  scopes: ReadonlySet<string>;
  egressAllow: readonly string[] | null;
  at: number;
}

/**
 * The executor's view of API clients (README "Tenancy and scopes", "Egress policy"), cached for
 * {@link APP_SCOPES_TTL_MS}: privileged handlers are checked again just before each run, so a scope revoked (or
 * a client disabled) after the submit stops the next run; the app's egress allow-list narrows its http calls.
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
   * Why `row` may not run (its handler is privileged and its app — for an ownerless fire, its job's owner — lacks
   * the scope or an enabled client), or null. @throws the database's error when the scopes cannot be read.
   */
  async refusal(row: Pick<JobInstance, 'handler' | 'appId' | 'jobId'>): Promise<string | null> {
    const scope = PRIVILEGED.get(row.handler);
    if (scope === undefined) return null;
    const appId = await this.ownerOf(row);
    if ((await this.factsOf(appId)).scopes.has(scope)) return null;
    const why = `does not hold the ${scope} scope (or its client is disabled)`;
    return `SCOPE_REVOKED: app '${appId}' ${why}: handler '${row.handler}' was not run`;
  }

  private async ownerOf(row: Pick<JobInstance, 'appId' | 'jobId'>): Promise<string> {
    if (row.appId !== OWNERLESS_APP_ID || !row.jobId) return row.appId;
    return (await this.jobs.findById(this.config.namespace, row.jobId))?.appId || row.appId;
  }

  /** `appId`'s egress allow-list, or null (none, or no client): the cluster policy alone. @throws on a read error. */
  async egressAllowOf(appId: string): Promise<readonly string[] | null> {
    return (await this.factsOf(appId)).egressAllow;
  }

  private async factsOf(appId: string): Promise<AppFacts> {
    const now = this.clock.now();
    const hit = this.cache.get(appId);
    if (hit && now - hit.at < APP_SCOPES_TTL_MS) return hit;
    // Every http run of an app reads this: a lost connection must not fail the run, only delay it.
    const client = await withDbRetry(() => this.clients.findByAppId(appId), READ_RETRY_MS);
    const scopes = new Set(client?.enabled ? (client.scopes ?? []) : []);
    const facts: AppFacts = { scopes, egressAllow: client?.egressAllow ?? null, at: now };
    this.cache.set(appId, facts);
    return facts;
  }
}
