import { Injectable, Module } from '@nestjs/common';
import { Redis } from 'ioredis';
import type { TickwheelClient } from '../../src/client/tickwheel-client.js';
import { JobContext, JobHandler, JobHandlerImpl } from '../../src/modules/execution/index.js';
import {
  clusterEnv,
  executorsBeat,
  jobInstanceStatuses,
  REDIS_URL,
  signedClient,
  startNode,
  type TestNode,
  uniqueNamespace,
  waitFor,
} from '../utils/test-node.js';
import { createJob } from '../utils/jobs.js';

let active = 0;
let peak = 0;
const runs: Array<{ instanceId: string; start: number; end: number | null }> = [];

/** `f.slow`: runs until its signal aborts it, then takes 800 ms to wind down (inside the executor's 1-s wait). */
@Injectable()
@JobHandler('f.slow')
class SlowStopHandler implements JobHandlerImpl {
  async execute(ctx: JobContext): Promise<unknown> {
    peak = Math.max(peak, ++active);
    const run = { instanceId: ctx.instanceId, start: Date.now(), end: null as number | null };
    runs.push(run);
    try {
      await new Promise<void>((resolve) =>
        ctx.signal.aborted ? resolve() : ctx.signal.addEventListener('abort', () => resolve(), { once: true }),
      );
      await new Promise((r) => setTimeout(r, 800));
      return { ok: true };
    } finally {
      active--;
      run.end = Date.now();
    }
  }
}

@Module({ providers: [SlowStopHandler] })
class SlowStopModule {}

/**
 * A Redis flush (FLUSHALL, failover to an empty replica) while a cancelled instance of a limited job is still
 * stopping (docs/data-model.md, docs/execution.md): the semaphore is rebuilt from MySQL before anyone new is admitted, and the cancelled
 * instance's handler still runs, so a new fire must wait for it. Runs on a Redis database of its own (14).
 */
describe('cancel of a running limited instance around a Redis flush (cluster)', () => {
  const ns = uniqueNamespace('e2e-cflush');
  const redisUrl = `${REDIS_URL.replace(/\/\d*$/, '')}/14`;
  let node: TestNode;
  let client: TickwheelClient;
  let redis: Redis;

  beforeAll(async () => {
    redis = new Redis(redisUrl);
    node = await startNode(
      clusterEnv(ns, { REDIS_URL: redisUrl, NODE_OFFLINE_AFTER_MS: '15000', LOG_LEVEL: 'error' }),
      { imports: [SlowStopModule] },
    );
    client = await signedClient(node);
    await executorsBeat(node, 1);
  }, 60_000);
  afterAll(async () => {
    await node?.close();
    redis?.disconnect();
  });

  const rows = (jobId: string) => jobInstanceStatuses(node.ds, jobId);

  it('a new fire admitted after the flush does not start beside the cancelled one still stopping', async () => {
    const jobId = (await createJob(client, { code: 'cf', handler: 'f.slow', maxConcurrency: 1, timeoutMs: 60_000 })).id;
    expect((await client.request('POST', '/api/jobs/cf/trigger', {})).status).toBe(202);
    await waitFor('A runs', async () => runs.length === 1 && (await rows(jobId))[0]?.status === 'RUNNING', 30_000, 20);
    const a = runs[0].instanceId;
    expect(await redis.flushdb()).toBe('OK');
    expect((await client.request('POST', `/api/jobs/cf/instances/${a}/cancel`)).status).toBe(200);
    expect((await client.request('POST', '/api/jobs/cf/trigger', {})).status).toBe(202);
    await waitFor('B ran', async () => runs.length === 2, 30_000, 20);
    const b = runs[1].instanceId;
    expect((await client.request('POST', `/api/jobs/cf/instances/${b}/cancel`)).status).toBe(200);
    await waitFor(
      'all final',
      async () => (await rows(jobId)).every((r) => r.status === 'CANCELLED') && active === 0,
      30_000,
      50,
    );
    expect(runs[1].start).toBeGreaterThanOrEqual(runs[0].end as number);
    expect(peak).toBe(1);
  }, 90_000);
});
