import { Inject, Injectable, Logger } from '@nestjs/common';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { CLOCK, type Clock, ConflictError, ValidationError } from '../../../common/index.js';
import { APP_CONFIG, type AppConfig } from '../../../config/index.js';
import { ApiClientRepository } from '../../metadata/index.js';
import { SecretBox } from './secret-box.js';

const CACHE_MS = 30_000;

/** Credentials of one API client, as shown once at creation. */
export interface ApiCredentials {
  appId: string;
  secret: string;
}

/**
 * Manages API clients (DESIGN §3 `api_client`, §8): creates them with a random 256-bit secret, stores it
 * sealed with the TICKWHEEL_SECRET_KEY (standalone: a key file generated in DATA_DIR), and hands the
 * plain secret to the signature guard through a 30 s cache.
 */
@Injectable()
export class ApiClientService {
  private readonly logger = new Logger(ApiClientService.name);
  private readonly box: SecretBox;
  private readonly cache = new Map<string, { secret: string | null; at: number }>();

  constructor(
    private readonly clients: ApiClientRepository,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {
    this.box = new SecretBox(config.secretKeyHex ?? standaloneKey(config.dataDir));
  }

  /**
   * Creates a client. `appId` is 3-64 of [A-Za-z0-9_.-].
   * @throws ValidationError for a bad id; ConflictError when it exists.
   */
  async create(appId: string): Promise<ApiCredentials> {
    if (!/^[A-Za-z0-9_.-]{3,64}$/.test(appId)) throw new ValidationError('appId', 'appId must be 3-64 of [A-Za-z0-9_.-]');
    if (await this.clients.findByAppId(appId)) throw new ConflictError(`app '${appId}' already exists`, 'appId');
    const secret = randomBytes(32).toString('hex');
    await this.clients.insert({ appId, secretEnc: this.box.seal(secret), enabled: true, rateLimit: 0, callbackHosts: null, createdAt: this.clock.now() });
    return { appId, secret };
  }

  /** Plain secret of an enabled client, or null (unknown or disabled). */
  async secretOf(appId: string): Promise<string | null> {
    const now = this.clock.now();
    const hit = this.cache.get(appId);
    if (hit && now - hit.at < CACHE_MS) return hit.secret;
    const row = await this.clients.findByAppId(appId);
    let secret: string | null = null;
    if (row?.enabled) {
      try {
        secret = this.box.open(row.secretEnc);
      } catch {
        this.logger.error(`app ${appId}: stored secret cannot be opened with the configured TICKWHEEL_SECRET_KEY`);
      }
    }
    this.cache.set(appId, { secret, at: now });
    return secret;
  }

  /**
   * Standalone first start: when no client exists, creates `standalone`, logs its credentials once and
   * writes them to DATA_DIR/credentials.json (mode 0600) for the bundled CLI. Returns them, or null.
   */
  async bootstrapStandalone(): Promise<ApiCredentials | null> {
    if (this.config.shape !== 'standalone' || (await this.clients.count()) > 0) return null;
    const creds = await this.create('standalone');
    writeFileSync(join(this.config.dataDir, 'credentials.json'), JSON.stringify(creds, null, 2) + '\n', { mode: 0o600 });
    this.logger.warn(`first start: created API client '${creds.appId}'; its secret is in ${join(this.config.dataDir, 'credentials.json')}`);
    return creds;
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
