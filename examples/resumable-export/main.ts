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
import { startExecutor } from 'tickwheel/executor';
import { ResumableExportModule } from './resumable-export.module.js';

const app = await startExecutor({ imports: [ResumableExportModule], defaultPort: 3004 }).catch((err: Error) => {
  process.stderr.write(`${err.message}\n`); // PORT taken: the node has left the cluster already
  process.exit(2);
});
const url = await app.getUrl(); // a JSON line, as the product's pino lines (docs/observability.md "Logs")
const msg = `export.resumable executor listening on ${url}`;
console.log(JSON.stringify({ level: 30, time: Date.now(), msg, url, port: Number(new URL(url).port) }));
