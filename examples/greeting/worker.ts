/**
 * The same GreetingModule run as an app worker (the package entry `tickwheel/worker`): the process holds only its
 * app's credentials, no database, Redis or secret key, and runs only that app's `greeting.hello` tasks.
 *
 *   npm run build && TICKWHEEL_URL=http://localhost:3000 TICKWHEEL_APP_ID=<app> TICKWHEEL_SECRET=<secret> \
 *     node dist/examples/greeting/worker.js
 *
 * The app needs the `worker` scope (README "Write your own handlers"). WORKER_CONCURRENCY (default 4) and the
 * other WORKER_* settings tune it (docs/workers.md "The TypeScript SDK"). Every line it prints is one JSON object;
 * once registered: `msg` `greeting worker registered as node <nodeId>` with `url`, `appId` and `nodeId`.
 * SIGTERM drains: running tasks get WORKER_DRAIN_GRACE_MS, then are handed back.
 */
import 'reflect-metadata';
import { ConsoleLogger, Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { TickwheelWorkerModule, TickwheelWorkerService } from 'tickwheel/worker';
import { GreetingModule } from './greeting.module.js';

@Module({ imports: [TickwheelWorkerModule.forRoot(), GreetingModule] })
class GreetingWorker {}

const app = await NestFactory.createApplicationContext(GreetingWorker, { logger: new ConsoleLogger({ json: true }) });
app.enableShutdownHooks();
const nodeId = app.get(TickwheelWorkerService).current?.nodeId;
const msg = `greeting worker registered as node ${nodeId}`;
const { TICKWHEEL_URL: url, TICKWHEEL_APP_ID: appId } = process.env;
console.log(JSON.stringify({ level: 30, time: Date.now(), msg, url, appId, nodeId }));
