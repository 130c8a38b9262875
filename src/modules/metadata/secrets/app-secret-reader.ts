import { Inject, Injectable } from '@nestjs/common';
import { LRUCache } from 'lru-cache';
import { APP_CONFIG, type AppConfig } from '../../../config/index.js';
import { ApiClientRepository } from '../repositories/api-client.repository.js';
import { SecretBox, standaloneKey } from './secret-box.js';

/** What a background sender needs of an app: its plain secret and its own egress allow-list (null: none). */
export interface AppSigning {
  secret: string;
  egressAllow: readonly string[] | null;
}

const CACHE_MS = 30_000;

/** The app's stored signing material cannot be used (unknown or disabled app, corrupt row, wrong key). */
export class AppSigningError extends Error {}

/**
 * Reads an app's api_client secret (opened with TICKWHEEL_SECRET_KEY, standalone: DATA_DIR/secret.key) for
 * signing outbound calls (docs/callbacks.md "What is sent"), cached 30 s per app (at most 1,000 apps).
 */
@Injectable()
export class AppSecretReader {
  private box: SecretBox | null = null;
  private readonly cache = new LRUCache<string, AppSigning>({ max: 1_000, ttl: CACHE_MS });

  constructor(
    private readonly clients: ApiClientRepository,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /**
   * The signing material of app `appId`.
   * @throws AppSigningError when the app is unknown or disabled, its egressAllow corrupt, or its secret cannot
   *   be opened with the configured key.
   */
  async read(appId: string): Promise<AppSigning> {
    const hit = this.cache.get(appId);
    if (hit) return hit;
    const row = await this.clients.findByAppId(appId);
    if (!row?.enabled) throw new AppSigningError(`app '${appId}' is unknown or disabled`);
    let secret: string;
    try {
      // Opened on first use: a process that never signs (a CLI) must not create the standalone key file.
      this.box ??= new SecretBox(this.config.secretKeyHex ?? standaloneKey(this.config.dataDir));
      secret = this.box.open(row.secretEnc);
    } catch {
      throw new AppSigningError(`app '${appId}': its secret cannot be opened with the configured TICKWHEEL_SECRET_KEY`);
    }
    const egressAllow = row.egressAllow;
    if (egressAllow !== null && !Array.isArray(egressAllow))
      throw new AppSigningError(`app '${appId}': corrupt egressAllow`);
    const signing = { secret, egressAllow };
    this.cache.set(appId, signing);
    return signing;
  }
}
