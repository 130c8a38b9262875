import { Inject, Injectable, Logger } from '@nestjs/common';
import { LRUCache } from 'lru-cache';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { CLOCK, type Clock, ConflictError, ValidationError } from '../../../common/index.js';
import { APP_CONFIG, type AppConfig } from '../../../config/index.js';
import { ApiClient, ApiClientRepository, DEFAULT_SCOPES, Scope } from '../../metadata/index.js';
import { SecretBox } from './secret-box.js';

/** How long a looked-up client (or its absence) is trusted before the database is read again, ms. */
const CACHE_MS = 30_000;
/** Most known clients kept in the cache. */
const CACHE_MAX = 10_000;
/** Most unknown app ids remembered: the ids are chosen by strangers, so this bound keeps their cost flat. */
const UNKNOWN_MAX = 1_000;
/** What an app id may look like (exact, ASCII): checked before any lookup, so no odd spelling reaches the database. */
export const APP_ID_PATTERN = /^[A-Za-z0-9_.-]{3,64}$/;

/** Credentials of one API client, as shown once at creation. */
export interface ApiCredentials {
  appId: string;
  secret: string;
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
 * Manages API clients (DESIGN §3 `api_client`, §8, §11): creates them with a random 256-bit secret and
 * their scopes, stores the secret sealed with the TICKWHEEL_SECRET_KEY (standalone: a key file generated in
 * DATA_DIR), and resolves a client for the request path through a bounded cache (30 s): at most
 * {@link CACHE_MAX} known clients and {@link UNKNOWN_MAX} unknown ids, least recently used out first.
 */
@Injectable()
export class ApiClientService {
  private readonly logger = new Logger(ApiClientService.name);
  private readonly box: SecretBox;
  private readonly known = new LRUCache<string, ResolvedClient>({ max: CACHE_MAX, ttl: CACHE_MS });
  private readonly unknown = new LRUCache<string, true>({ max: UNKNOWN_MAX, ttl: CACHE_MS });

  constructor(
    private readonly clients: ApiClientRepository,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {
    this.box = new SecretBox(config.secretKeyHex ?? standaloneKey(config.dataDir));
  }

  /**
   * Creates a client. `appId` is 3-64 of [A-Za-z0-9_.-], compared exactly.
   * @param scopes what it may do; default {@link DEFAULT_SCOPES} (never admin or shell unless asked).
   * @throws ValidationError for a bad id or scope; ConflictError when it exists.
   */
  async create(appId: string, scopes: readonly Scope[] = DEFAULT_SCOPES): Promise<ApiCredentials> {
    if (!APP_ID_PATTERN.test(appId)) throw new ValidationError('appId', 'appId must be 3-64 of [A-Za-z0-9_.-]');
    const known = new Set<string>(Object.values(Scope));
    const bad = scopes.find((s) => !known.has(s));
    if (bad !== undefined) throw new ValidationError('scopes', `unknown scope '${bad}'; scopes are ${[...known].join(', ')}`);
    if (await this.clients.findByAppId(appId)) throw new ConflictError(`app '${appId}' already exists`, 'appId');
    const secret = randomBytes(32).toString('hex');
    const now = this.clock.now();
    await this.clients.insert(Object.assign(new ApiClient(), {
      appId, secretEnc: this.box.seal(secret), enabled: true, scopes: [...new Set(scopes)], rateLimit: null, rateBurst: null,
      maxJobs: null, maxUnfinishedTasks: null, egressAllow: null, callbackHosts: null, createdAt: now, updatedAt: now,
    }));
    this.forget(appId);
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

  /** Drops `appId` from the cache, so the next lookup reads the database (after a change to the client). */
  forget(appId: string): void {
    this.known.delete(appId);
    this.unknown.delete(appId);
  }

  /**
   * Standalone first start: when no client exists, creates `standalone` with every scope (it is the
   * machine owner's), logs where its credentials are and writes them to DATA_DIR/credentials.json (mode
   * 0600) for the bundled CLI. Returns them, or null.
   */
  async bootstrapStandalone(): Promise<ApiCredentials | null> {
    if (this.config.shape !== 'standalone' || (await this.clients.count()) > 0) return null;
    const creds = await this.create('standalone', Object.values(Scope));
    writeFileSync(join(this.config.dataDir, 'credentials.json'), JSON.stringify(creds, null, 2) + '\n', { mode: 0o600 });
    this.logger.warn(`first start: created API client '${creds.appId}'; its secret is in ${join(this.config.dataDir, 'credentials.json')}`);
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
      appId: row.appId, secret, scopes: new Set(row.scopes ?? []), rateLimit: row.rateLimit, rateBurst: row.rateBurst,
      maxJobs: row.maxJobs, maxUnfinishedTasks: row.maxUnfinishedTasks, egressAllow: row.egressAllow,
    };
  }
}

/** Standalone only: the 32-byte key in DATA_DIR/secret.key, created (0600) on first use. */
function standaloneKey(dataDir: string): string {
  const file = join(dataDir, 'secret.key');
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  mkdirSync(dataDir, { recursive: true });
  const key = randomBytes(32).toString('hex');
  writeFileSync(file, key + '\n', { mode: 0o600 });
  return key;
}
