import 'reflect-metadata';
import { announceListening, createApp } from './bootstrap.js';
import { ConfigError, loadConfig, Role, scrubSecretsFromEnv } from './config/index.js';
import { DataDirLockedError } from './infra/standalone/index.js';
import { ApiClientService } from './modules/openapi/index.js';

/**
 * Entry point: validate the settings (a bad one stops start-up with a message naming it), remove the secret
 * ones from process.env (nothing spawned inherits them), build the app for the configured roles, listen on PORT.
 */
async function main(): Promise<void> {
  let config;
  try {
    config = loadConfig();
    scrubSecretsFromEnv();
  } catch (err) {
    if (err instanceof ConfigError) {
      process.stderr.write(`tickwheel: ${err.message}\n`);
      process.exit(2);
    }
    throw err;
  }
  const app = await createApp(config).catch((err: Error) => {
    // ConfigError here: a check that needs the running process (the shell handler's run-as user).
    if (err instanceof DataDirLockedError || err instanceof ConfigError) {
      process.stderr.write(`tickwheel: ${err.message}\n`);
      process.exit(2);
    }
    throw err;
  });
  await app.listen(config.http.port, config.http.host).catch(async (err: NodeJS.ErrnoException) => {
    // The roles have started: stop them, or an executor that never served stays live in the registry and gets work.
    await app.close().catch(() => undefined);
    process.stderr.write(
      `tickwheel: cannot listen on ${config.http.host}:${config.http.port}: ${err.code ?? err.message} (PORT, HOST)\n`,
    );
    process.exit(2);
  });
  announceListening(app, config); // stdout carries JSON log lines only; this one is the readiness line (chaos, bench)
  const api = config.roles.includes(Role.API);
  const creds = api ? await app.get(ApiClientService).bootstrapStandalone() : null;
  if (creds) {
    // For the person at the terminal, never into the logs (bootstrapStandalone logged where the file is).
    process.stderr.write(
      `\n  First start: created the API client below. The secret is shown only now;\n` +
        `  it is also saved to ${config.dataDir}/credentials.json, which "npm run tw" reads.\n\n` +
        `    AppId:  ${creds.appId}\n    Secret: ${creds.secret}\n\n`,
    );
  }
}

main().catch((err: Error) => {
  process.stderr.write(`tickwheel: start-up failed: ${err.stack ?? err.message}\n`);
  process.exit(1);
});
