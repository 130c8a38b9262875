/**
 * A business application that runs only as a Tickwheel executor with its own handlers:
 *
 *   npm run build && DB_URL=... REDIS_URL=... TICKWHEEL_SECRET_KEY=... node dist/examples/greeting/main.js
 *
 * It joins the cluster (heartbeats, advertises `http` and `greeting.hello`), takes tasks routed to it and
 * serves /health and /metrics on PORT (default 3001 here).
 */
import 'reflect-metadata';
import { createApp } from '../../src/bootstrap.js';
import { loadConfig, scrubSecretsFromEnv } from '../../src/config/index.js';
import { GreetingModule } from './greeting.module.js';

const config = loadConfig({ PORT: '3001', ...process.env, ROLES: 'executor' });
scrubSecretsFromEnv(); // read above; nothing this process spawns may inherit them
const app = await createApp(config, { imports: [GreetingModule] });
await app.listen(config.http.port, config.http.host);
const url = await app.getUrl(); // a JSON line, as the product's pino lines (docs/observability.md "Logs")
const port = Number(new URL(url).port);
console.log(JSON.stringify({ level: 30, time: Date.now(), msg: `greeting executor listening on ${url}`, url, port }));
