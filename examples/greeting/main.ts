/**
 * A business application that runs only as a Tickwheel executor with its own handlers (the package entry
 * `tickwheel/executor`, as an app that installed the package imports it):
 *
 *   npm run build && DB_URL=... REDIS_URL=... TICKWHEEL_SECRET_KEY=... node dist/examples/greeting/main.js
 *
 * It joins the cluster (heartbeats, advertises `http` and `greeting.hello`), takes tasks routed to it and
 * serves /health and /metrics on PORT (default 3001 here).
 */
import 'reflect-metadata';
import { startExecutor } from 'tickwheel/executor';
import { GreetingModule } from './greeting.module.js';

await startExecutor({ imports: [GreetingModule], defaultPort: 3001 });
