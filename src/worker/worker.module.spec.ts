import { Injectable, Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { attemptOf, FakeWorkerApi } from '../../test/fakes/fake-worker-api.js';
import {
  type JobContext,
  JobHandler,
  type JobHandlerImpl,
  TickwheelWorkerModule,
  TickwheelWorkerService,
} from './index.js';

@Injectable()
@JobHandler('greet')
class Greet implements JobHandlerImpl {
  async execute(ctx: JobContext) {
    return { hello: (ctx.params as { name: string }).name };
  }
}

/** A handler with a built-in's name (an app that also runs an executor has these): never advertised by a worker. */
@Injectable()
@JobHandler('noop')
class NoopLike implements JobHandlerImpl {
  async execute() {
    return null;
  }
}

describe('TickwheelWorkerModule', () => {
  let api: FakeWorkerApi;
  beforeEach(async () => (api = await new FakeWorkerApi().start()));
  afterEach(() => api.close());

  it('discovers the @JobHandler providers, runs their attempts, and drains when the app closes', async () => {
    @Module({
      imports: [TickwheelWorkerModule.forRoot({ ...api.creds, concurrency: 2 })],
      providers: [Greet, NoopLike],
    })
    class UserApp {}
    const app = await NestFactory.createApplicationContext(UserApp, { logger: false });
    try {
      expect(api.of('register')[0].body).toMatchObject({ handlers: ['greet'], capacity: 2 });
      const item = attemptOf('greet', { params: { name: 'ada' } });
      api.push(item);
      await api.until(() => api.of('finish').length === 1, 5_000, 'the finish');
      expect(api.of('finish')[0].body).toEqual({
        fencingToken: item.fencingToken,
        outcome: 'SUCCESS',
        result: { hello: 'ada' },
      });
      expect(app.get(TickwheelWorkerService).current?.nodeId).toBe('node-1');
    } finally {
      await app.close();
    }
    expect(api.of('deregister')).toHaveLength(1);
  });

  it('reads the connection from TICKWHEEL_* when no option gives it', async () => {
    const saved = { ...process.env };
    Object.assign(process.env, {
      TICKWHEEL_URL: api.url,
      TICKWHEEL_APP_ID: api.creds.appId,
      TICKWHEEL_SECRET: api.creds.secret,
      WORKER_CONCURRENCY: '7',
    });
    @Module({ imports: [TickwheelWorkerModule.forRoot()], providers: [Greet] })
    class EnvApp {}
    try {
      const app = await NestFactory.createApplicationContext(EnvApp, { logger: false });
      await app.close();
      expect(api.of('register')[0].body).toMatchObject({ handlers: ['greet'], capacity: 7 });
    } finally {
      for (const k of ['TICKWHEEL_URL', 'TICKWHEEL_APP_ID', 'TICKWHEEL_SECRET', 'WORKER_CONCURRENCY']) {
        if (saved[k] === undefined) delete process.env[k];
        else process.env[k] = saved[k];
      }
    }
  });
});
