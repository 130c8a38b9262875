/**
 * `npm run create-app -- APP_ID [--scopes a,b,c] [--admin] [--rate-limit N] [--rate-burst N]`: creates an
 * API client in the configured database and prints its secret once (docs/tenancy.md).
 */
import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import { Module } from '@nestjs/common';
import { CoreModule, loadConfig, scrubSecretsFromEnv } from '../config/index.js';
import { DEFAULT_SCOPES, Scope } from '../modules/metadata/index.js';
import { ApiClientModule, ApiClientService, checkScopes, type ClientLimits } from '../modules/openapi/index.js';

const USAGE =
  `usage: npm run create-app -- APP_ID [--scopes a,b,c] [--admin] [--rate-limit N] [--rate-burst N]\n  ` +
  `scopes: ${Object.values(Scope).join(', ')}\n`;

/** APP_ID, the scopes and the rate limit the arguments ask for. Exits 2 with the usage on anything else. */
function parseArgs(argv: string[]): { appId: string; scopes: Scope[]; limits: ClientLimits } {
  let appId: string | undefined;
  let scopes: string[] = [...DEFAULT_SCOPES];
  let admin = false;
  const limits: ClientLimits = {};
  const fail = (why: string): never => {
    process.stderr.write(`create-app: ${why}\n${USAGE}`);
    process.exit(2);
  };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--admin') admin = true;
    else if (a === '--scopes' || a.startsWith('--scopes=')) {
      const list = a === '--scopes' ? argv[++i] : a.slice('--scopes='.length);
      if (list === undefined) fail('--scopes needs a comma list');
      scopes = list
        .split(',')
        .map((s) => s.trim())
        .filter((s) => s.length > 0);
    } else if (a === '--rate-limit' || a === '--rate-burst') {
      const [v, min] = [argv[++i], a === '--rate-limit' ? 0 : 1];
      if (v === undefined || !/^\d+$/.test(v) || Number(v) < min)
        fail(`${a} takes a whole number of at least ${min}, got '${v ?? ''}'`);
      limits[a === '--rate-limit' ? 'rateLimit' : 'rateBurst'] = Number(v);
    } else if (a.startsWith('-')) fail(`unknown option ${a}`);
    else if (appId === undefined) appId = a;
    else fail(`unexpected argument ${a}`);
  }
  if (appId === undefined) return fail('APP_ID is missing');
  try {
    return { appId, scopes: checkScopes(admin ? [...scopes, Scope.ADMIN] : scopes), limits };
  } catch (err) {
    return fail((err as Error).message);
  }
}

const { appId, scopes, limits } = parseArgs(process.argv.slice(2));
const config = (() => {
  try {
    const c = loadConfig();
    scrubSecretsFromEnv(); // read above; nothing this process spawns may inherit them
    return c;
  } catch (err) {
    // A bad or missing setting is one line naming it (as the server says it), not a stack trace.
    process.stderr.write(`create-app: ${(err as Error).message}\n`);
    process.exit(2);
  }
})();
// Say which store the app goes to: an unexported DB_URL silently means the standalone SQLite file.
process.stderr.write(
  config.database.type === 'mysql'
    ? 'create-app: cluster store (DB_URL)\n'
    : `create-app: standalone store (SQLite in ${config.dataDir}; set DB_URL for the cluster)\n`,
);

@Module({ imports: [CoreModule.forConfig(config), ApiClientModule] })
class CreateAppModule {}

const ctx = await NestFactory.createApplicationContext(CreateAppModule, { logger: ['error'] });
try {
  const creds = await ctx.get(ApiClientService).create(appId, { scopes, limits, actor: null });
  process.stdout.write(
    `AppId:  ${creds.appId}\nSecret: ${creds.secret}\nScopes: ${scopes.join(',') || '(none)'}\n(the secret is ` +
      `shown only now; store it)\n`,
  );
} catch (err) {
  process.stderr.write(`${(err as Error).message}\n`);
  process.exitCode = 1;
} finally {
  await ctx.close();
}
