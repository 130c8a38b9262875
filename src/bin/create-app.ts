/**
 * `npm run create-app -- APP_ID`: creates an API client in the configured database (same settings as the
 * server: DB_URL, TICKWHEEL_SECRET_KEY, or the standalone SQLite file) and prints its secret once.
 */
import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import { Module } from '@nestjs/common';
import { CoreModule, loadConfig, scrubSecretsFromEnv } from '../config/index.js';
import { MetadataModule } from '../modules/metadata/index.js';
import { ApiClientService } from '../modules/openapi/auth/api-client.service.js';

const appId = process.argv[2];
if (!appId) {
  process.stderr.write('usage: npm run create-app -- APP_ID\n');
  process.exit(2);
}
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
process.stderr.write(config.database.type === 'mysql' ? 'create-app: cluster store (DB_URL)\n' : `create-app: standalone store (SQLite in ${config.dataDir}; set DB_URL for the cluster)\n`);

@Module({ imports: [CoreModule.forConfig(config), MetadataModule], providers: [ApiClientService] })
class CreateAppModule {}

const ctx = await NestFactory.createApplicationContext(CreateAppModule, { logger: ['error'] });
try {
  const creds = await ctx.get(ApiClientService).create(appId);
  process.stdout.write(`AppId:  ${creds.appId}\nSecret: ${creds.secret}\n(the secret is shown only now; store it)\n`);
} catch (err) {
  process.stderr.write(`${(err as Error).message}\n`);
  process.exitCode = 1;
} finally {
  await ctx.close();
}
