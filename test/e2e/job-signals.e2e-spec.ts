import { Redis } from 'ioredis';
import { TickwheelClient } from '../../src/client/tickwheel-client.js';
import { RedisKeys } from '../../src/modules/coordination/index.js';
import { LeaderDuties, LeaderElectionService } from '../../src/modules/trigger/index.js';
import {
  clusterEnv,
  REDIS_URL,
  signedClient,
  startNode,
  TestNode,
  uniqueNamespace,
  waitFor,
} from '../utils/test-node.js';
import { deleteNamespaceRows } from '../utils/namespace-rows.js';
import { sleep } from '../utils/async.js';

/**
 * A job created through an API-only process reaches the leader's wheel at once (JobSignals over Redis
 * pub/sub), not at the leader's next page scan: here the scan runs every 60 s (the most allowed), so
 * without the signal no fire row would be written within the test's waits. (It ran every 30 s with
 * an 8-s wait: a loaded machine could run out of the 8 s, or reach the next scan.)
 */
describe('job change signals between processes (MariaDB + Redis)', () => {
  const ns = uniqueNamespace('e2e-signals');
  let scheduler: TestNode;
  let api: TestNode;
  let client: TickwheelClient;

  beforeAll(async () => {
    const slowScan = { TRIGGER_SCAN_INTERVAL_MS: '60000', TRIGGER_HORIZON_MS: '70000' };
    scheduler = await startNode(clusterEnv(ns, { ROLES: 'scheduler', ...slowScan }));
    api = await startNode(clusterEnv(ns, { ROLES: 'api', ...slowScan }));
    client = await signedClient(api);
    // Before the job exists, the scheduler leads, listens for job changes, and its first scan (of an empty
    // namespace) is behind it — waited for, not slept (1.5 s was a guess).
    const redis = new Redis(REDIS_URL);
    const channel = new RedisKeys(ns).channel('jobs-changed');
    const duties = scheduler.app.get(LeaderDuties);
    try {
      await waitFor(
        'the leader listening for job changes, its first scan done',
        async () =>
          scheduler.app.get(LeaderElectionService).isLeader &&
          Number(((await redis.pubsub('NUMSUB', channel)) as [string, number])[1]) >= 1 &&
          !duties.isRunning('load'),
        30_000,
        50,
      );
    } finally {
      redis.disconnect();
    }
  }, 60_000);

  afterAll(async () => {
    await api?.close();
    await scheduler?.close();
    await deleteNamespaceRows(api?.ds, ns).catch(() => undefined);
  });

  const rows = async (jobId: string) =>
    (
      (await scheduler.ds.query('SELECT fire_time FROM job_instance WHERE job_id = ? ORDER BY fire_time', [
        jobId,
      ])) as Array<{ fire_time: string }>
    ).map((r) => Number(r.fire_time));
  const firstWritten = async (jobId: string) =>
    Number(
      (
        (await scheduler.ds.query('SELECT MIN(created_at) AS t FROM job_instance WHERE job_id = ?', [jobId])) as Array<{
          t: string;
        }>
      )[0].t,
    );

  it('should write the first fires of a job created in another process within seconds, and stop them on a pause from there', async () => {
    const created = Date.now();
    const res = await client.request<{ id: string }>('POST', '/api/jobs', {
      code: 'every-second',
      handler: 'http',
      triggerType: 'CRON',
      triggerExpr: '* * * * * *',
      params: { method: 'GET', url: 'http://127.0.0.1:9/none' },
    });
    expect(res.status).toBe(201);
    const jobId = res.body.id;
    await waitFor('the first fire rows', async () => (await rows(jobId)).length >= 2, 30_000, 50);
    // Written within seconds of the job's creation (15 s for a loaded machine), not at the scan ~60 s away.
    expect((await firstWritten(jobId)) - created).toBeLessThan(15_000);

    expect((await client.request('POST', `/api/jobs/${jobId}/pause`)).status).toBe(200);
    const paused = Date.now();
    await sleep(3_000); // time passes on purpose: no fire may be written after the pause
    expect((await rows(jobId)).filter((t) => t > paused + 1_000)).toEqual([]);
  }, 90_000);
});
