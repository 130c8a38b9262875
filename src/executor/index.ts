// `tickwheel/executor`: what a user's Nest app needs to run its own @JobHandler providers as a trusted executor of
// the cluster (README "Write your own handlers"), and the handler contract it implements.
// Its types name only Nest's common interfaces (a peer), so an app compiles against them without express's types.
import type { DynamicModule, INestApplication, Type } from '@nestjs/common';
import { announceListening, createApp as createNestApp } from '../bootstrap.js';
import { type AppConfig, loadConfig, Role, scrubSecretsFromEnv } from '../config/index.js';

export * from '../modules/handler/index.js';
export { type AppConfig, ConfigError, loadConfig, scrubSecretsFromEnv } from '../config/index.js';

/** The modules a node imports beside Tickwheel's own: the app's modules of `@JobHandler` providers. */
export type HandlerModules = Array<DynamicModule | Type<unknown>>;

/** What {@link startExecutor} takes. */
export interface ExecutorOptions {
  /** The app's modules holding its `@JobHandler` providers. */
  imports: HandlerModules;
  /** The settings (README "The cluster shape": DB_URL, REDIS_URL, TICKWHEEL_SECRET_KEY, …); default process.env. */
  env?: Record<string, string | undefined>;
  /** PORT of /health and /metrics when `env` sets none; default 3001. */
  defaultPort?: number;
}

/**
 * Builds and initialises a node for `config` (from {@link loadConfig}) with the app's modules, as `npm start` builds
 * the product; it does not listen. Standalone, it first locks DATA_DIR.
 * @throws DataDirLockedError standalone, when another live process runs on the same DATA_DIR.
 */
export function createApp(config: AppConfig, opts: { imports?: HandlerModules } = {}): Promise<INestApplication> {
  return createNestApp(config, opts);
}

/**
 * Starts an executor-only node (`ROLES=executor`, whatever `env` says) with the app's handlers beside the built-ins:
 * reads the settings, deletes the secret ones from process.env (nothing spawned inherits them), builds the app and
 * listens on PORT for /health and /metrics, then logs the node's JSON readiness line (`… listening on <url>`).
 * Close it with `app.close()` (SIGTERM does: shutdown hooks drain it).
 * @throws ConfigError naming a bad setting (an executor needs the cluster shape: DB_URL and REDIS_URL).
 * @throws Error when PORT cannot be listened on (the node has left the cluster by then).
 */
export async function startExecutor(opts: ExecutorOptions): Promise<INestApplication> {
  const env = opts.env ?? process.env;
  const config: AppConfig = loadConfig({ PORT: String(opts.defaultPort ?? 3001), ...env, ROLES: Role.EXECUTOR });
  scrubSecretsFromEnv(); // read above; nothing this process spawns may inherit them
  const app = await createNestApp(config, { imports: opts.imports });
  try {
    await app.listen(config.http.port, config.http.host);
  } catch (err) {
    await app.close().catch(() => undefined); // leave the registry now, or it stays live (and is given work) a while
    const code = (err as NodeJS.ErrnoException).code ?? (err as Error).message;
    throw new Error(`cannot listen on ${config.http.host}:${config.http.port}: ${code} (PORT)`, { cause: err });
  }
  announceListening(app, config);
  return app;
}
