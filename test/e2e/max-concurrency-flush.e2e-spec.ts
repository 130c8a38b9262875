import { Redis } from 'ioredis';
import { TickwheelClient } from '../../src/client/tickwheel-client.js';
import { EffectLog, startEffectLog } from '../utils/effect-log.js';
import {
  clusterEnv,
  executorsBeat,
  REDIS_URL,
  signedClient,
  startNode,
  statusCounts,
  TestNode,
  uniqueNamespace,
  waitFor,
} from '../utils/test-node.js';
import { createJob, triggerNow } from '../utils/jobs.js';
import { sleep } from '../utils/async.js';

/**
 * Per-job maxConcurrency after Redis loses its semaphores (docs/data-model.md, docs/execution.md): the job's limit lives in a Redis
 * semaphore whose holders are the running instances. A flush empties it while they still run; without
 * repair, dispatch would admit new instances past the limit until the old ones end. A semaphore Redis
 * does not know admits nobody: dispatch rebuilds it from the DISPATCHED and RUNNING rows first, so new
 * instances wait (WAITING) right after the flush, with no reconcile pass in between; the leader's passes
 * then keep the running holders fresh.
 *
 * The cluster runs on a Redis database of its own (index 12), which the test flushes with FLUSHDB: for
 * the deployment a FLUSHALL, while test files running at the same time keep their keys. The handler's
 * calls are held by the receiver until the test lets them go, so the instances run as long as needed.
 */
describe('maxConcurrency after a Redis flush (cluster)', () => {
  const ns = uniqueNamespace('e2e-limit-flush');
  const redisUrl = `${REDIS_URL.replace(/\/\d*$/, '')}/12`;
  let node: TestNode;
  let client: TickwheelClient;
  let effects: EffectLog;
  let redis: Redis;
  let hold = true;

  beforeAll(async () => {
    effects = await startEffectLog(() => (hold ? { hold: true } : { delayMs: 0 }));
    redis = new Redis(redisUrl);
    // The product's 15-s offline threshold (as test/utils/task-shapes.ts explains): a CI worker starved for 3 s must
    // not get its executor declared offline and the held instances revoked and run again.
    node = await startNode(clusterEnv(ns, { REDIS_URL: redisUrl, NODE_OFFLINE_AFTER_MS: '15000' }));
    client = await signedClient(node);
    await executorsBeat(node, 1);
  }, 60_000);

  afterAll(async () => {
    hold = false;
    effects?.release('/slow');
    await node?.close();
    await effects?.close();
    redis?.disconnect();
  });

  const byStatus = async (jobId: string) => {
    const rows: Array<{ id: string; status: string }> = await node.ds.query(
      'SELECT id, status FROM job_instance WHERE namespace = ? AND job_id = ?',
      [ns, jobId],
    );
    return rows;
  };
  const count = async (jobId: string, status: string) =>
    (await byStatus(jobId)).filter((r) => r.status === status).length;

  it('should hold the limit right after the flush: the running instances are rebuilt as holders before anyone new is admitted', async () => {
    const jobId = (
      await createJob(client, {
        code: 'limited',
        handler: 'http',
        maxConcurrency: 2,
        timeoutMs: 120_000,
        params: { url: `${effects.url}/slow`, timeoutMs: 120_000 },
      })
    ).id;
    const semaphore = `{tw:${ns}}:sem:job:${jobId}`;
    const trigger = () => triggerNow(client, 'limited', 1, 5);

    await trigger();
    await trigger();
    await waitFor(
      'two instances running',
      async () => (await count(jobId, 'RUNNING')) === 2 && effects.effects.length === 2,
      30_000,
    );
    const running = (await byStatus(jobId))
      .filter((r) => r.status === 'RUNNING')
      .map((r) => r.id)
      .sort();
    const holders = async () => (await redis.zrange(semaphore, 0, -1)).filter((m) => m !== '~known').sort();
    expect(await holders()).toEqual(running);

    expect(await redis.flushdb()).toBe('OK');
    // At once, before any reconcile pass: dispatch finds the semaphore unknown and rebuilds it from MySQL
    // (the two RUNNING rows) before it admits anyone, so the new fires wait.
    await trigger();
    await trigger();
    // Over the limit: both wait (waited for: a loaded machine may not have routed them within the 3 s below,
    // which then found them still PENDING), and for as long as the first two run, never more than two run.
    await waitFor(
      'the two new fires waiting',
      async () => {
        expect(await count(jobId, 'RUNNING')).toBeLessThanOrEqual(2);
        return (await count(jobId, 'WAITING')) === 2;
      },
      30_000,
      50,
    );
    for (let i = 0; i < 10; i++) {
      await sleep(300); // sampling: never more than two run while the first two hold their slots
      expect(await count(jobId, 'RUNNING')).toBeLessThanOrEqual(2);
    }
    expect(await count(jobId, 'WAITING')).toBe(2);
    expect(effects.effects).toHaveLength(2);
    // The leader's passes keep the running instances as holders (with a fresh expiry).
    await waitFor(
      'the running instances to hold the semaphore',
      async () => (await holders()).join() === running.join(),
      30_000,
      50,
    );

    // Let everything finish: the waiting ones run once slots free, and no slot stays taken.
    hold = false;
    effects.release('/slow');
    await waitFor('all four SUCCESS', async () => (await count(jobId, 'SUCCESS')) === 4, 60_000, 100);
    expect(new Set(effects.effects.map((e) => e.instanceId)).size).toBe(4);
    expect(effects.effects).toHaveLength(4);
    await waitFor('the semaphore empty', async () => (await holders()).length === 0, 30_000, 50);
    expect(await statusCounts(node.ds, ns)).toEqual({ SUCCESS: 4 });
  }, 150_000);
});
