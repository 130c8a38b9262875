// The files of the project package-install.e2e-spec.ts makes outside the repository: a user's Nest app with one
// @JobHandler, run as a trusted executor (tickwheel/executor, main.ts) and as an app worker (tickwheel/worker,
// worker.ts), its unit test (tickwheel/testing under node:test) and a signed call with tickwheel/client. Compiled
// there under `tsc --strict`, module nodenext, no skipLibCheck. The handler takes the contract from tickwheel/worker,
// which both entries export: a worker process importing tickwheel/executor would load its database and Redis clients.

const tsconfig = {
  compilerOptions: {
    module: 'nodenext',
    moduleResolution: 'nodenext',
    target: 'es2022',
    strict: true,
    experimentalDecorators: true,
    emitDecoratorMetadata: true,
    outDir: 'dist',
    rootDir: 'src',
    types: ['node'],
  },
  include: ['src'],
};

const handler = `import { Injectable } from '@nestjs/common';
import { type JobContext, JobFailure, JobHandler, type JobHandlerImpl } from 'tickwheel/worker';

export interface Hello {
  greeting: string;
  steps: number;
  resumedFrom: number;
}

@Injectable()
@JobHandler('pkg.hello')
export class HelloHandler implements JobHandlerImpl {
  async execute(ctx: JobContext): Promise<Hello> {
    const { name, steps = 3, stepMs = 0 } = ctx.params as { name?: string; steps?: number; stepMs?: number };
    if (!name) throw new JobFailure('params.name is required', undefined, { retryable: false });
    const from = (ctx.lastCheckpoint?.state as { step: number } | undefined)?.step ?? 0;
    for (let step = from + 1; step <= steps; step++) {
      ctx.signal.throwIfAborted();
      if (stepMs > 0) await new Promise((resolve) => setTimeout(resolve, stepMs));
      ctx.progress(step / steps);
      await ctx.checkpoint({ step });
    }
    ctx.log.info('greeted', name);
    return { greeting: 'Hello, ' + name + '!', steps, resumedFrom: from };
  }
}
`;

const module = `import { Module } from '@nestjs/common';
import { HelloHandler } from './hello.handler.js';

@Module({ providers: [HelloHandler] })
export class HelloModule {}
`;

const main = `import 'reflect-metadata';
import { startExecutor } from 'tickwheel/executor';
import { HelloModule } from './hello.module.js';

const app = await startExecutor({ imports: [HelloModule] });
process.stdout.write('pkg executor listening on ' + (await app.getUrl()) + '\\n');
`;

// The same module as an app worker: only TICKWHEEL_URL, TICKWHEEL_APP_ID and TICKWHEEL_SECRET (and WORKER_*); once
// registered it prints one JSON line naming its node and any cluster setting it was given (the test wants none).
const worker = `import 'reflect-metadata';
import { Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { TickwheelWorkerModule, TickwheelWorkerService } from 'tickwheel/worker';
import { HelloModule } from './hello.module.js';

@Module({ imports: [TickwheelWorkerModule.forRoot(), HelloModule] })
class WorkerApp {}

const app = await NestFactory.createApplicationContext(WorkerApp, { logger: ['error', 'warn'] });
app.enableShutdownHooks();
const clusterSettings = ['DB_URL', 'REDIS_URL', 'TICKWHEEL_SECRET_KEY'].filter((k) => k in process.env);
const nodeId = app.get(TickwheelWorkerService).current?.nodeId ?? null;
process.stdout.write(JSON.stringify({ event: 'registered', nodeId, clusterSettings }) + '\\n');
`;

const unitTest = `import assert from 'node:assert/strict';
import { test } from 'node:test';
import { CheckpointRejected } from 'tickwheel/executor';
import { FakeJobContext, runStopAndResume } from 'tickwheel/testing';
import { HelloHandler } from './hello.handler.js';

test('greets, reporting progress and a checkpoint per step', async () => {
  const ctx = new FakeJobContext({ params: { name: 'Ada', steps: 2 } });
  assert.deepEqual(await new HelloHandler().execute(ctx), { greeting: 'Hello, Ada!', steps: 2, resumedFrom: 0 });
  assert.deepEqual(ctx.checkpoints.map((c) => c.state), [{ step: 1 }, { step: 2 }]);
  assert.deepEqual(ctx.progressReports.map((p) => p.fraction), [0.5, 1]);
  assert.deepEqual(ctx.lines('info'), ['greeted Ada']);
  const stale = new FakeJobContext({ params: { name: 'Ada' } });
  stale.rejectCheckpoints();
  await assert.rejects(new HelloHandler().execute(stale), CheckpointRejected);
});

test('resumes from its last checkpoint after a stop, each step once', async () => {
  const run = await runStopAndResume(new HelloHandler(), {
    stopAfterCheckpoint: 2,
    context: { params: { name: 'Ada', steps: 4 } },
  });
  assert.deepEqual(run.result, { greeting: 'Hello, Ada!', steps: 4, resumedFrom: 2 });
  assert.equal(run.second.ctx.fencingToken, run.first.ctx.fencingToken + 1);
  const steps = [...run.first.ctx.checkpoints, ...run.second.ctx.checkpoints].map((c) => c.state);
  assert.deepEqual(steps, [{ step: 1 }, { step: 2 }, { step: 3 }, { step: 4 }]);
});
`;

const clientCheck = `import { createTickwheelClient } from 'tickwheel/client';

const client = createTickwheelClient({
  baseUrl: process.env.TICKWHEEL_URL ?? 'http://localhost:3000',
  appId: process.env.TICKWHEEL_APP_ID ?? '',
  secret: process.env.TICKWHEEL_SECRET ?? '',
});
const res = await client.GET('/api/nodes', { params: { query: { handler: 'pkg.hello' } } });
const handlers = (res.data?.items ?? []).flatMap((n) => n.handlers);
process.stdout.write(JSON.stringify({ status: res.response.status, handlers }) + '\\n');
`;

/** Path in the project → text. */
export const PROJECT_FILES: Record<string, string> = {
  'tsconfig.json': JSON.stringify(tsconfig, null, 2),
  'src/hello.handler.ts': handler,
  'src/hello.module.ts': module,
  'src/main.ts': main,
  'src/worker.ts': worker,
  'src/hello.test.ts': unitTest,
  'src/client-check.ts': clientCheck,
};
