import { Inject, Injectable } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '../../config/index.js';
import { JobDefinitionRepository, type JobInstance, OWNERLESS_APP_ID, Scope } from '../metadata/index.js';
import { APP_STATES_TTL_MS, AppStates } from './app-states.js';

/** How long an app's scopes read here are trusted, ms: a revoked `shell` scope stops runs claimed after that. */
export const APP_SCOPES_TTL_MS = APP_STATES_TTL_MS;
/** Handlers that run only for apps holding the scope of the same name. */
const PRIVILEGED: ReadonlyMap<string, Scope> = new Map([['shell', Scope.SHELL]]);

/**
 * The executor's view of API clients' scopes (README "Tenancy and scopes", "Egress policy"), through
 * {@link AppStates}: privileged handlers are checked again just before each run, so a scope revoked (or a client
 * disabled) after the submit stops the next run; the app's egress allow-list narrows its http calls.
 */
@Injectable()
export class AppScopes {
  constructor(
    private readonly states: AppStates,
    private readonly jobs: JobDefinitionRepository,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /**
   * Why `row` may not run (its handler is privileged and its app — for an ownerless fire, its job's owner — lacks
   * the scope or an enabled client), or null. @throws the database's error when the scopes cannot be read.
   */
  async refusal(row: Pick<JobInstance, 'handler' | 'appId' | 'jobId'>): Promise<string | null> {
    const scope = PRIVILEGED.get(row.handler);
    if (scope === undefined) return null;
    const appId = await this.ownerOf(row);
    if ((await this.states.factsOf(appId)).scopes.has(scope)) return null;
    const why = `does not hold the ${scope} scope (or its client is disabled)`;
    return `SCOPE_REVOKED: app '${appId}' ${why}: handler '${row.handler}' was not run`;
  }

  private async ownerOf(row: Pick<JobInstance, 'appId' | 'jobId'>): Promise<string> {
    if (row.appId !== OWNERLESS_APP_ID || !row.jobId) return row.appId;
    return (await this.jobs.findById(this.config.namespace, row.jobId))?.appId || row.appId;
  }

  /** `appId`'s egress allow-list, or null (none, or no client): the cluster policy alone. @throws on a read error. */
  async egressAllowOf(appId: string): Promise<readonly string[] | null> {
    return (await this.states.factsOf(appId)).egressAllow;
  }
}
