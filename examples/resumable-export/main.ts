/**
 * An executor that runs the resumable export (README.md here):
 *
 *   npm run build && EXPORT_DIR=/var/exports DB_URL=... REDIS_URL=... TICKWHEEL_SECRET_KEY=... \
 *     node dist/examples/resumable-export/main.js
 *
 * It joins the cluster, advertises `export.resumable` (and the built-ins), and serves /health, /metrics on PORT
 * (default 3004: the README's cluster section holds 3000-3003).
 */
import 'reflect-metadata';
import { createApp } from '../../src/bootstrap.js';
import { loadConfig, scrubSecretsFromEnv } from '../../src/config/index.js';
import { ResumableExportModule } from './resumable-export.module.js';

const config = loadConfig({ PORT: '3004', ...process.env, ROLES: 'executor' });
scrubSecretsFromEnv(); // read above; nothing this process spawns may inherit them
const app = await createApp(config, { imports: [ResumableExportModule] });
await app.listen(config.http.port, config.http.host).catch(async (err: NodeJS.ErrnoException) => {
  await app.close().catch(() => undefined); // leave the registry now, or it stays live (and is given work) a while
  process.stderr.write(`cannot listen on ${config.http.host}:${config.http.port}: ${err.code ?? err.message} (PORT)\n`);
  process.exit(2);
});
const url = await app.getUrl(); // a JSON line, as the product's pino lines (docs/observability.md "Logs")
const msg = `export.resumable executor listening on ${url}`;
console.log(JSON.stringify({ level: 30, time: Date.now(), msg, url, port: Number(new URL(url).port) }));
