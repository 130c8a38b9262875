import { Inject, Injectable, Logger, type OnModuleDestroy, type OnModuleInit } from '@nestjs/common';
import { LRUCache } from 'lru-cache';
import { randomBytes } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  BOUNDS,
  CLOCK,
  type Clock,
  ConflictError,
  nameMessage,
  namePattern,
  NotFoundError,
  ValidationError,
} from '../../../common/index.js';
import { APP_CONFIG, type AppConfig } from '../../../config/index.js';
import { CLIENTS_CHANGED_CHANNEL, SIGNALS, type SignalPort } from '../../coordination/index.js';
import {
  ApiClient,
  ApiClientRepository,
  DEFAULT_SCOPES,
  isUniqueViolation,
  OWNERLESS_APP_ID,
  Scope,
  SecretBox,
  standaloneKey,
  UnitOfWork,
} from '../../metadata/index.js';
import { AuditAction, AuditService, clientSnapshot } from '../../jobs/index.js';

/**
 * How long a looked-up client (or its absence) is trusted before the database is read again, ms: the bound on a
 * change's reach when its {@link CLIENTS_CHANGED_CHANNEL} message is lost (Redis unreachable).
 */
const CACHE_MS = 30_000;
/** Most known clients kept in the cache. */
const CACHE_MAX = 10_000;
/** Most unknown app ids remembered: the ids are chosen by strangers, so this bound keeps their cost flat. */
export const UNKNOWN_MAX = 1_000;
/** What an app id may look like (exact, ASCII): checked before any lookup, so no odd spelling reaches the database. */
export const APP_ID_PATTERN = namePattern('A-Za-z0-9_.-', BOUNDS.appId);
export const APP_ID_MESSAGE = nameMessage('appId', 'A-Za-z0-9_.-', BOUNDS.appId);

/** Credentials of one API client, as shown once at creation. */
export interface ApiCredentials {
  appId: string;
  secret: string;
}

/** A client's own limits (README "Tenancy and scopes"); null or absent = the settings' defaults, 0 = no limit. */
export type ClientLimits = Partial<
  Pick<ApiClient, 'rateLimit' | 'rateBurst' | 'maxJobs' | 'maxUnfinishedTasks' | 'egressAllow'>
>;

/**
 * `scopes` deduplicated, in the enum's order.
 * @throws ValidationError(`scopes`) for an unknown one.
 */
export function checkScopes(scopes: readonly string[]): Scope[] {
  const known: string[] = Object.values(Scope);
  const bad = scopes.find((s) => !known.includes(s));
  if (bad !== undefined) throw new ValidationError('scopes', `unknown scope '${bad}'; scopes are ${known.join(', ')}`);
  return Object.values(Scope).filter((s) => scopes.includes(s));
}

/** An enabled client as the request path needs it: its plain secret, scopes and limits (null = the defaults). */
export interface ResolvedClient {
  appId: string;
  secret: string;
  scopes: ReadonlySet<Scope>;
  rateLimit: number | null;
  rateBurst: number | null;
  maxJobs: number | null;
  maxUnfinishedTasks: number | null;
  egressAllow: string[] | null;
}

/**
 * Manages API clients (docs/data-model.md `api_client`, docs/api.md, docs/tenancy.md): creates them with a
 * random 256-bit secret and their scopes, stores the secret sealed with the TICKWHEEL_SECRET_KEY (standalone:
 * a key file generated in DATA_DIR), and resolves a client for the request path through a bounded cache
 * (30 s): at most {@link CACHE_MAX} known clients and {@link UNKNOWN_MAX} unknown ids, least recently used
 * out first. A change to a client is announced on {@link CLIENTS_CHANGED_CHANNEL}: every process drops its copy.
 */
@Injectable()
export class ApiClientService implements OnModuleInit, OnModuleDestroy {
  private readonly logger = new Logger(ApiClientService.name);
  private readonly box: SecretBox;
  private readonly known = new LRUCache<string, ResolvedClient>({ max: CACHE_MAX, ttl: CACHE_MS });
  private readonly unknown = new LRUCache<string, true>({ max: UNKNOWN_MAX, ttl: CACHE_MS });

  constructor(
    private readonly clients: ApiClientRepository,
    private readonly audit: AuditService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(CLOCK) private readonly clock: Clock,
    private readonly uow: UnitOfWork,
    @Inject(SIGNALS) private readonly signals: SignalPort,
  ) {
    this.box = new SecretBox(config.secretKeyHex ?? standaloneKey(config.dataDir));
  }

  private unsubscribe: (() => Promise<void>) | null = null;

  /** Listens for client changes made by other processes; failing that (Redis down) the TTL still bounds them. */
  async onModuleInit(): Promise<void> {
    this.unsubscribe = await this.signals
      .subscribe(CLIENTS_CHANGED_CHANNEL, (appId) => this.forget(appId))
      .catch((err: Error) => {
        this.logger.warn(`client changes of other processes reach this one within ${CACHE_MS} ms: ${err.message}`);
        return null;
      });
  }

  async onModuleDestroy(): Promise<void> {
    await this.unsubscribe?.().catch(() => undefined);
  }

  /**
   * Creates a client with a random 256-bit secret, and its audit row in the same transaction. `appId` is
   * 3-64 of [A-Za-z0-9_.-], compared exactly; `tickwheel` is reserved in any letter case.
   * @param opts.scopes what it may do; default {@link DEFAULT_SCOPES} (never admin or shell unless asked).
   * @param opts.limits its own limits (null or absent = the settings' defaults).
   * @param opts.actor the admin app that asked (audit); null for an operator's CLI or the first start.
   * @returns the credentials: the only time the secret is shown.
   * @throws ValidationError for a bad or reserved id, or a bad scope; ConflictError when it exists.
   */
  async create(
    appId: string,
    opts: { scopes?: readonly Scope[]; limits?: ClientLimits; actor?: string | null } = {},
  ): Promise<ApiCredentials> {
    if (!APP_ID_PATTERN.test(appId)) throw new ValidationError('appId', APP_ID_MESSAGE);
    // In any letter case: ids compare exactly, but `TICKWHEEL` would read as the owner of ownerless jobs
    if (appId.toLowerCase() === OWNERLESS_APP_ID)
      throw new ValidationError('appId', `'${appId}' is reserved: it stands for the owner of jobs that have none`);
    const scopes = checkScopes(opts.scopes ?? DEFAULT_SCOPES);
    if (await this.clients.findByAppId(appId)) throw new ConflictError(`app '${appId}' already exists`, 'appId');
    const secret = randomBytes(32).toString('hex');
    const now = this.clock.now();
    const l = opts.limits ?? {};
    const row = Object.assign(new ApiClient(), {
      appId,
      secretEnc: this.box.seal(secret),
      enabled: true,
      scopes,
      rateLimit: l.rateLimit ?? null,
      rateBurst: l.rateBurst ?? null,
      maxJobs: l.maxJobs ?? null,
      maxUnfinishedTasks: l.maxUnfinishedTasks ?? null,
      egressAllow: l.egressAllow ?? null,
      callbackHosts: null,
      createdAt: now,
      updatedAt: now,
    });
    await this.uow.run(async (em) => {
      await this.clients.insert(row, em).catch((err: unknown) => {
        throw isUniqueViolation(err) ? new ConflictError(`app '${appId}' already exists`, 'appId') : err;
      });
      await this.audit.record(
        em,
        opts.actor ?? null,
        AuditAction.CLIENT_CREATE,
        { type: 'client', id: appId },
        undefined,
        clientSnapshot(row),
      );
    });
    await this.changed(appId);
    return { appId, secret };
  }

  /**
   * Gives client `appId` a new random secret (the old one stops working at once on every process that gets the
   * change's message, else within the 30-s cache), with its audit row (which never holds either secret) in the
   * same transaction.
   * @returns the credentials: the only time the new secret is shown. @throws NotFoundError
   */
  async rotateSecret(actor: string | null, appId: string): Promise<ApiCredentials> {
    const secret = randomBytes(32).toString('hex');
    await this.uow.run(async (em) => {
      if (!(await this.clients.lockForUpdate(em, appId))) throw new NotFoundError('client', appId);
      await this.clients.update(em, appId, { secretEnc: this.box.seal(secret), updatedAt: this.clock.now() });
      await this.audit.record(em, actor, AuditAction.CLIENT_ROTATE_SECRET, { type: 'client', id: appId }, undefined, {
        secretRotated: true,
      });
    });
    await this.changed(appId);
    return { appId, secret };
  }

  /**
   * The enabled client `appId` with its plain secret, or null (malformed id, unknown, disabled, or a secret
   * the configured key cannot open). Served from the cache for up to 30 s after the database was read.
   */
  async lookup(appId: string): Promise<ResolvedClient | null> {
    if (!APP_ID_PATTERN.test(appId)) return null;
    const hit = this.known.get(appId);
    if (hit) return hit;
    if (this.unknown.has(appId)) return null;
    const resolved = this.resolve(await this.clients.findByAppId(appId));
    if (resolved) this.known.set(appId, resolved);
    else this.unknown.set(appId, true);
    return resolved;
  }

  /** Plain secret of an enabled client, or null (see {@link lookup}). */
  async secretOf(appId: string): Promise<string | null> {
    return (await this.lookup(appId))?.secret ?? null;
  }

  /** How many clients the cache holds now: known ones, and unknown ids remembered as unknown (both bounded). */
  cacheSize(): { known: number; unknown: number } {
    return { known: this.known.size, unknown: this.unknown.size };
  }

  /** Drops `appId` from the cache, so the next lookup reads the database (after a change to the client). */
  forget(appId: string): void {
    this.known.delete(appId);
    this.unknown.delete(appId);
  }

  /**
   * After a committed change to client `appId`: this process forgets it, and every process subscribed to
   * {@link CLIENTS_CHANGED_CHANNEL} (api caches here, executors' and dispatchers' app states) does too. Never
   * throws: a lost message leaves the caches' TTLs (30 s here, 5 s for executors) as the bound, logged.
   */
  async changed(appId: string): Promise<void> {
    this.forget(appId);
    await this.signals.publish(CLIENTS_CHANGED_CHANNEL, appId).catch((err: Error) => {
      const why = `other processes see it within ${CACHE_MS} ms: ${err.message}`;
      this.logger.warn(`client change of '${appId}' not announced (${why})`);
    });
  }

  /**
   * Standalone first start: when no client exists, creates `standalone` with every scope (it is the
   * machine owner's), logs where its credentials are and writes them to DATA_DIR/credentials.json (mode
   * 0600) for the bundled CLI. Returns them, or null.
   */
  async bootstrapStandalone(): Promise<ApiCredentials | null> {
    if (this.config.shape !== 'standalone' || (await this.clients.count()) > 0) return null;
    const creds = await this.create('standalone', { scopes: Object.values(Scope) });
    writeFileSync(join(this.config.dataDir, 'credentials.json'), JSON.stringify(creds, null, 2) + '\n', {
      mode: 0o600,
    });
    const credentialsFile = join(this.config.dataDir, 'credentials.json');
    this.logger.warn({
      msg: `first start: created API client '${creds.appId}'; its secret is in ${credentialsFile} (never logged)`,
      appId: creds.appId,
      credentialsFile,
    });
    return creds;
  }

  private resolve(row: ApiClient | null): ResolvedClient | null {
    if (!row?.enabled) return null;
    let secret: string;
    try {
      secret = this.box.open(row.secretEnc);
    } catch {
      this.logger.error(`app ${row.appId}: stored secret cannot be opened with the configured TICKWHEEL_SECRET_KEY`);
      return null;
    }
    return {
      appId: row.appId,
      secret,
      scopes: new Set(row.scopes ?? []),
      rateLimit: row.rateLimit,
      rateBurst: row.rateBurst,
      maxJobs: row.maxJobs,
      maxUnfinishedTasks: row.maxUnfinishedTasks,
      egressAllow: row.egressAllow,
    };
  }
}
