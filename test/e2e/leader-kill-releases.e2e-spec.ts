import { Redis } from 'ioredis';
import type { TickwheelClient } from '../../src/client/tickwheel-client.js';
import { NodeRegistryService } from '../../src/modules/dispatch/index.js';
import { type LimitReceiver, startLimitReceiver } from '../utils/limit-receiver.js';
import { type ProductProcess, startProcess } from '../utils/process-node.js';
import {
  clusterEnv,
  jobInstanceStatuses,
  REDIS_URL,
  signedClient,
  startNode,
  type TestNode,
  uniqueNamespace,
  waitFor,
} from '../utils/test-node.js';
import { createJob, triggerNow } from '../utils/jobs.js';

/**
 * The leader SIGKILLed while a limited job's releases and cancels stream through its delay pump (docs/trigger.md, docs/execution.md):
 * the executor's delay-due signals reach nobody until a standby leads; nothing may be lost, run twice, run over
 * the limit, or left WAITING. Two scheduler processes (the leader is killed, its standby takes over within the
 * 3-s leader lease), the api and one executor in the test.
 */
describe('leader killed while releases and cancels fly (real processes)', () => {
  const ns = uniqueNamespace('e2e-lkill');
  let api: TestNode;
  let client: TickwheelClient;
  let rx: LimitReceiver;
  let redis: Redis;
  const schedulers: ProductProcess[] = [];

  beforeAll(async () => {
    rx = await startLimitReceiver(() => ({ status: 200, delayMs: 40 }));
    redis = new Redis(REDIS_URL);
    for (let i = 0; i < 2; i++)
      schedulers.push(
        startProcess(
          clusterEnv(ns, { ROLES: 'scheduler', PORT: '0', NODE_OFFLINE_AFTER_MS: '15000', LOG_LEVEL: 'error' }),
        ),
      );
    api = await startNode(
      clusterEnv(ns, { ROLES: 'api,executor', NODE_OFFLINE_AFTER_MS: '15000', LOG_LEVEL: 'error' }),
    );
    client = await signedClient(api);
    await waitFor(
      'the executor beats and a leader leads',
      async () =>
        (await api.app.get(NodeRegistryService).liveNodes()).length === 1 &&
        !!(await redis.get(`{tw:${ns}}:lock:leader`)),
      30_000,
    );
  }, 60_000);
  afterAll(async () => {
    for (const p of schedulers) await p.stop(3000);
    await api?.close();
    await rx?.close();
    redis?.disconnect();
  });

  const rows = (jobId: string) => jobInstanceStatuses(api.ds, jobId);

  it('every instance ends once, never over the limit, none left waiting', async () => {
    const jobId = (
      await createJob(client, {
        code: 'lk',
        handler: 'http',
        maxConcurrency: 2,
        timeoutMs: 30_000,
        params: { url: `${rx.url}/lk`, timeoutMs: 30_000 },
      })
    ).id;
    await triggerNow(client, 'lk', 60);
    await waitFor('a few ran', async () => rx.of('/lk').length >= 6, 30_000, 10);
    const owner = String(await redis.get(`{tw:${ns}}:lock:leader`));
    const leader = schedulers.find((p) => owner.startsWith(`${p.pid}-`)) as ProductProcess;
    expect(leader).toBeDefined();
    leader.signal('SIGKILL');
    // Cancels while nobody leads: every fifth instance, whatever its state.
    const ids = (await rows(jobId)).map((r) => r.id);
    const cancelled = ids.filter((_, i) => i % 5 === 4);
    const answers = await Promise.all(
      cancelled.map((id) =>
        client.request<{ status: string }>('POST', `/api/jobs/lk/instances/${id}/cancel`).then((r) => r.body.status),
      ),
    );
    expect(answers.every((s) => ['CANCELLED', 'SUCCESS'].includes(s))).toBe(true);
    await waitFor(
      'every instance final',
      async () => (await rows(jobId)).every((r) => ['SUCCESS', 'CANCELLED', 'FAILED'].includes(r.status)),
      90_000,
      100,
    );
    const rs = await rows(jobId);
    const calls = rx.of('/lk').map((c) => c.instanceId);
    expect(new Set(calls).size).toBe(calls.length);
    expect(rs.filter((r) => r.status === 'SUCCESS').every((r) => calls.includes(r.id))).toBe(true);
    expect(rs.filter((r) => r.status === 'FAILED')).toEqual([]);
    expect(rx.peak('/lk')).toBeLessThanOrEqual(2);
  }, 150_000);
});
