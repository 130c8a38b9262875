import type { LoggerService } from '@nestjs/common';
import { attemptOf, FakeWorkerApi } from '../../test/fakes/fake-worker-api.js';
import {
  CheckpointRejected,
  type JobContext,
  JobFailure,
  TickwheelWorker,
  type TickwheelWorkerOptions,
} from './index.js';

const quiet: LoggerService = { log: () => undefined, warn: () => undefined, error: () => undefined };

describe('TickwheelWorker against a fake worker api (docs/workers.md)', () => {
  let api: FakeWorkerApi;
  const workers: TickwheelWorker[] = [];

  const worker = (handlers: TickwheelWorkerOptions['handlers'], over: Partial<TickwheelWorkerOptions> = {}) => {
    const w = new TickwheelWorker({ ...api.creds, handlers, loggerFor: () => quiet, drainGraceMs: 200, ...over });
    workers.push(w);
    return w;
  };
  const finishOf = (instanceId: string) => api.of('finish').find((s) => s.instanceId === instanceId)?.body;
  const finished = (n: number) => api.until(() => api.of('finish').length >= n, 5_000, `${n} finish(es)`);

  beforeEach(async () => {
    api = await new FakeWorkerApi().start();
  });

  afterEach(async () => {
    await Promise.all(workers.splice(0).map((w) => w.stop()));
    await api.close();
  });

  it('registers its handlers, claims several attempts per call and finishes each with its result', async () => {
    const seen: JobContext[] = [];
    const w = worker(
      {
        'report.daily': async (ctx) => {
          seen.push(ctx);
          await new Promise((r) => setTimeout(r, 100));
          return { done: ctx.params };
        },
        other: async () => 'x',
      },
      { concurrency: 3 },
    );
    const items = [1, 2, 3].map(() => attemptOf('report.daily'));
    api.push(...items);
    await w.start();
    expect(api.of('register')[0].body).toEqual({
      handlers: ['other', 'report.daily'],
      capacity: 3,
      host: expect.any(String),
    });
    await finished(3);
    // the three came in one claim call, asked with max = the free slots
    expect(api.of('claims')[0].body).toEqual({ max: 3, waitMs: 200 });
    expect(seen).toHaveLength(3);
    for (const item of items) {
      expect(finishOf(item.instanceId)).toEqual({
        fencingToken: item.fencingToken,
        outcome: 'SUCCESS',
        result: { done: item.params },
      });
    }
    const ctx = seen.find((c) => c.instanceId === items[0].instanceId) as JobContext;
    expect(ctx).toMatchObject({
      requestId: items[0].requestId,
      appId: 'app-test',
      jobCode: null,
      attempt: 1,
      maxAttempts: 3,
      fencingToken: items[0].fencingToken,
      shardIndex: 0,
      shardTotal: 1,
      traceId: items[0].traceId,
      lastCheckpoint: null,
    });
    expect(ctx.signal.aborted).toBe(false);
    // heartbeats carry the running count; every node-scoped call names the registered node
    await api.until(() => api.of('heartbeat').length > 0, 2_000, 'a heartbeat');
    expect(api.seen.filter((s) => s.nodeId).every((s) => s.nodeId === 'node-1')).toBe(true);
  });

  it('aborts a handler whose lease is lost and does not finish it; REVOKED finishes CANCELLED', async () => {
    const reasons: string[] = [];
    const w = worker({
      wait: (ctx) =>
        new Promise((_, reject) =>
          ctx.signal.addEventListener('abort', () => {
            reasons.push((ctx.signal.reason as Error).message);
            reject(ctx.signal.reason as Error);
          }),
        ),
    });
    const [lost, revoked] = [attemptOf('wait'), attemptOf('wait')];
    api.lost.set(lost.instanceId, 'LEASE_LOST');
    api.lost.set(revoked.instanceId, 'REVOKED');
    api.push(lost, revoked);
    await w.start();
    await finished(1);
    await api.until(() => w.active === 0, 3_000, 'the attempts to end');
    expect(reasons.sort()).toEqual(['LEASE_LOST', 'REVOKED']);
    expect(finishOf(lost.instanceId)).toBeUndefined();
    expect(finishOf(revoked.instanceId)).toMatchObject({ outcome: 'CANCELLED', fencingToken: revoked.fencingToken });
    expect(api.of('leases')[0].body).toEqual({
      attempts: expect.arrayContaining([{ instanceId: lost.instanceId, fencingToken: lost.fencingToken }]),
    });
  });

  it('checkpoint: resolves once stored; 409 → CheckpointRejected; too large or not JSON → RangeError', async () => {
    const outcomes: string[] = [];
    const w = worker(
      {
        cp: async (ctx) => {
          await ctx.checkpoint({ step: 1 });
          outcomes.push('stored');
          await ctx.checkpoint({ big: 'x'.repeat(2_000) }).catch((e: Error) => outcomes.push(e.name));
          await ctx.checkpoint({ f: () => 1 }).catch((e: Error) => outcomes.push(e.name));
          api.staleCheckpoints.add(ctx.instanceId);
          await ctx
            .checkpoint({ step: 2 })
            .catch((e: unknown) => outcomes.push(String(e instanceof CheckpointRejected)));
          return 'ok';
        },
      },
      { checkpointMaxBytes: 1_000 },
    );
    const item = attemptOf('cp', { lastCheckpoint: { state: { step: 0 }, attempt: 1, fencingToken: 5, at: 1 } });
    api.push(item);
    await w.start();
    await finished(1);
    expect(outcomes).toEqual(['stored', 'RangeError', 'RangeError', 'true']);
    expect(api.of('checkpoint').map((s) => s.body)).toEqual([
      { fencingToken: item.fencingToken, state: { step: 1 } },
      { fencingToken: item.fencingToken, state: { step: 2 } },
    ]);
  });

  it('coalesces progress, batches log lines; JobFailure(retryable false) and timeouts finish as such', async () => {
    const w = worker(
      {
        chatty: async (ctx) => {
          for (let i = 1; i <= 10; i++) ctx.progress(i / 10, `step ${i}`);
          ctx.log.info('hello', { a: 1 });
          ctx.log.warn('careful');
          throw new JobFailure('bad input', { code: 422 }, { retryable: false });
        },
        slow: (ctx) =>
          new Promise((_, reject) => ctx.signal.addEventListener('abort', () => reject(new Error('stopped')))),
      },
      { progressIntervalMs: 10_000 },
    );
    const chatty = attemptOf('chatty');
    const slow = attemptOf('slow', { timeoutMs: 150 });
    api.push(chatty, slow);
    await w.start();
    await finished(2);
    expect(finishOf(chatty.instanceId)).toMatchObject({
      outcome: 'FAILED',
      error: 'JobFailure: bad input',
      result: { code: 422 },
      retryable: false,
    });
    expect(finishOf(slow.instanceId)).toMatchObject({ outcome: 'TIMEOUT', error: 'timed out after 150 ms' });
    // the first report at once, the last one at the end: two writes for ten reports
    expect(api.of('progress').map((s) => s.body)).toEqual([
      { fencingToken: chatty.fencingToken, fraction: 0.1, note: 'step 1' },
      { fencingToken: chatty.fencingToken, fraction: 1, note: 'step 10' },
    ]);
    const logs = api.of('logs');
    expect(logs).toHaveLength(1);
    expect(logs[0].body).toEqual({
      fencingToken: chatty.fencingToken,
      lines: [
        { level: 'info', message: 'hello {"a":1}', at: expect.any(Number) },
        { level: 'warn', message: 'careful', at: expect.any(Number) },
      ],
    });
    // lines and progress were sent before the finish
    const finishAt = api.of('finish').find((s) => s.instanceId === chatty.instanceId)?.at ?? 0;
    expect(logs[0].at).toBeLessThanOrEqual(finishAt);
  });

  it('drains on stop: heartbeat draining, grace, the rest handed back (SHUTDOWN), then DELETE', async () => {
    const w = worker(
      {
        quick: async () => {
          await new Promise((r) => setTimeout(r, 50));
          return 'quick';
        },
        stubborn: (ctx) =>
          new Promise((_, reject) => ctx.signal.addEventListener('abort', () => reject(new Error('x')))),
      },
      { drainGraceMs: 300 },
    );
    const [quick, stubborn] = [attemptOf('quick'), attemptOf('stubborn')];
    api.push(quick, stubborn);
    await w.start();
    await api.until(() => w.active === 2, 2_000, 'both running');
    await w.stop();
    expect(finishOf(quick.instanceId)).toMatchObject({ outcome: 'SUCCESS', result: 'quick' });
    expect(finishOf(stubborn.instanceId)).toMatchObject({ outcome: 'SHUTDOWN' });
    expect(api.of('heartbeat').some((s) => s.body?.draining === true)).toBe(true);
    const last = api.seen[api.seen.length - 1];
    expect(last.route).toBe('deregister');
    expect(api.nodes.size).toBe(0);
    // no claim was sent once draining began
    const drainAt = api.of('heartbeat').find((s) => s.body?.draining)?.at ?? 0;
    expect(api.of('claims').filter((s) => s.at > drainAt)).toHaveLength(0);
  });

  it('tries again after network errors, each try signed anew; a 409 on finish is logged as lost', async () => {
    const warnings: string[] = [];
    const logger: LoggerService = { ...quiet, warn: (m: string) => void warnings.push(m) };
    api.drops.set('register', 2);
    api.drops.set('finish', 1);
    const w = worker({ h: async () => 1 }, { loggerFor: () => logger });
    const [a, b] = [attemptOf('h'), attemptOf('h')];
    api.lostFinishes.add(b.instanceId);
    api.push(a, b);
    await w.start();
    await finished(2);
    await api.until(() => warnings.some((m) => m.includes(`attempt ${b.instanceId} lost`)), 2_000, 'the lost warning');
    expect(api.of('register')).toHaveLength(1); // the two dropped tries never reached the handler
    expect(warnings.filter((m) => m.startsWith('POST /api/worker/nodes failed'))).toHaveLength(2);
    expect(finishOf(a.instanceId)).toMatchObject({ outcome: 'SUCCESS', result: 1 });
  });

  it('fails an attempt whose result is not JSON or is refused; cuts a long error to the route bound', async () => {
    const w = worker({
      big: async () => 'x'.repeat(10),
      long: async () => Promise.reject(new Error('e'.repeat(9_000))),
      bigint: async () => ({ n: 1n }),
    });
    const [big, long, bigint] = [attemptOf('big'), attemptOf('long'), attemptOf('bigint')];
    api.tooLarge.add(big.instanceId);
    api.push(big, long, bigint);
    await w.start();
    await finished(4);
    expect(finishOf(bigint.instanceId)).toMatchObject({
      outcome: 'FAILED',
      error: expect.stringMatching(/^result is not JSON/),
    });
    const bigs = api.of('finish').filter((s) => s.instanceId === big.instanceId);
    expect(bigs.map((s) => s.body?.outcome)).toEqual(['SUCCESS', 'FAILED']);
    expect(bigs[1].body?.error).toMatch(/^the api refused the finish \(413 request body over 1 MB\)/);
    const error = String(finishOf(long.instanceId)?.error);
    expect(error.length).toBeLessThanOrEqual(4000);
    expect(error).toMatch(/^e+ …\[\d+ characters cut\]$/);
  });

  it('registers again when a heartbeat says the node expired (404), and goes on claiming on the new node', async () => {
    const w = worker({ h: async (ctx) => ctx.params });
    await w.start();
    expect(w.nodeId).toBe('node-1');
    api.nodes.delete('node-1'); // expired on the api
    await api.until(() => w.nodeId === 'node-2', 3_000, 're-registration');
    const item = attemptOf('h');
    api.push(item);
    await finished(1);
    expect(api.of('finish')[0].nodeId).toBe('node-2');
    expect(api.of('register')).toHaveLength(2);
  });

  it('frees a slot when its handler returns: the next attempt runs while the last finish is on the way', async () => {
    api.finishDelayMs = 300;
    const started = new Map<unknown, number>();
    const w = worker({ h: async (ctx) => void started.set(ctx.params, Date.now()) }, { concurrency: 1 });
    const [a, b] = [attemptOf('h', { params: 'a' }), attemptOf('h', { params: 'b' })];
    api.push(a);
    await w.start();
    await api.until(() => api.of('finish').length >= 1, 3_000, "a's finish");
    api.push(b);
    await finished(2);
    const aFinishSent = api.of('finish')[0].at;
    expect(started.get('b')).toBeLessThan(aFinishSent + api.finishDelayMs); // before a's finish was answered
  });

  it('refuses bad handler sets and missing settings before any call', () => {
    expect(() => worker({})).toThrow(/no handlers/);
    expect(() => worker({ shell: async () => 1 })).toThrow(/built-in/);
    expect(() => worker({ 'bad name': async () => 1 })).toThrow(/1-128/);
    expect(() => new TickwheelWorker({ handlers: { h: async () => 1 }, url: 'http://x' })).toThrow(/appId is not set/);
    expect(api.seen).toHaveLength(0);
  });
});
