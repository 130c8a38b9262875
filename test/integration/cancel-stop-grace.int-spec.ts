import { JobInstance, JobInstanceRepository, JobInstanceStatus as S, newJobInstance, TriggerSource } from '../../src/modules/metadata/index.js';
import { clusterEnv, signedClient, startNode, TestNode, uniqueNamespace } from '../utils/test-node.js';

/**
 * A RUNNING instance is cancelled with `lease_until` = the end of its executor's stop grace (DESIGN §7): until
 * the executor says the handler stopped (endStopGrace) or the grace runs out, the cancelled row keeps its job's
 * QUEUE turn and maxConcurrency place in releaseNextWaiting. Before, a QUEUE job's next fire was released while
 * the cancelled handler was still winding down. Only the api role runs: nothing else moves the rows.
 */
describe('the stop grace of a cancelled running instance (MariaDB)', () => {
  const ns = uniqueNamespace('int-stopgrace');
  let node: TestNode;
  let instances: JobInstanceRepository;

  beforeAll(async () => {
    node = await startNode(clusterEnv(ns, { ROLES: 'api' }));
    instances = node.app.get(JobInstanceRepository);
  }, 30_000);

  afterAll(async () => {
    await node?.ds.query('DELETE FROM job_instance WHERE namespace = ?', [ns]);
    await node?.close();
  });

  async function job(code: string, extra: Record<string, unknown>): Promise<string> {
    const client = await signedClient(node);
    const res = await client.request<{ id: string }>('POST', '/api/jobs', { code, handler: 'h', triggerType: 'CRON', triggerExpr: '0 0 1 1 *', ...extra });
    expect(res.status).toBe(201);
    return res.body.id;
  }

  async function row(jobId: string, status: S, fireTime: number, extra: Partial<JobInstance>): Promise<string> {
    const r = Object.assign(newJobInstance({ namespace: ns, appId: 'int', handler: 'h', fireTime, triggerSource: TriggerSource.SCHEDULE, dueAt: fireTime }, fireTime),
      { jobId, status, ...extra } as Partial<JobInstance>);
    await instances.insertIgnore(node.ds.manager, [r as JobInstance]);
    return r.id as string;
  }

  it.each([['QUEUE', { overlapPolicy: 'QUEUE' }, 0], ['limit 1', { maxConcurrency: 1 }, 1]] as const)(
    '%s: a cancelled instance in its stop grace keeps the next waiting; its executor\'s end of the grace, or the grace running out, releases it',
    async (_what, settings, limit) => {
      const now = Date.now();
      const jobId = await job(`sg-${limit}`, settings);
      const cancelled = await row(jobId, S.CANCELLED, now - 2000, { leaseUntil: now + 60_000, fencingToken: 7, maxConcurrency: limit });
      const waiting = await row(jobId, S.WAITING, now - 1000, { maxConcurrency: limit, error: 'waits' });
      expect(await instances.releaseNextWaiting(jobId, now)).toBeNull();
      await instances.endStopGrace(cancelled, 6); // an older attempt of the instance: not the one cancelled
      expect(await instances.releaseNextWaiting(jobId, now)).toBeNull();
      expect(await instances.releaseNextWaiting(jobId, now + 60_001)).not.toBeNull(); // grace over (executor dead)
      await node.ds.query('UPDATE job_instance SET status = ? WHERE id = ?', [S.WAITING, waiting]);
      await instances.endStopGrace(cancelled, 7);
      expect((await instances.releaseNextWaiting(jobId, now))?.id).toBe(waiting);
    });
});
