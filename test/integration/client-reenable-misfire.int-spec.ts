import { Redis } from 'ioredis';
import { RedisKeys } from '../../src/modules/coordination/index.js';
import { Scope, TriggerSource } from '../../src/modules/metadata/index.js';
import { TriggerService } from '../../src/modules/trigger/trigger.service.js';
import { sleep } from '../utils/async.js';
import { appClient } from '../utils/tenancy.js';
import { type AppClient, clusterEnv, REDIS_URL, startNode, TestNode, uniqueNamespace } from '../utils/test-node.js';

type Job = { id: string; enabled: boolean; pausedReason: string | null; nextFireTime: string | null };
type Row = { status: string; source: string; fireTime: number };

/**
 * Enabling a disabled client again hands the fires its jobs missed meanwhile to each job's misfire policy
 * (docs/tenancy.md "Disabled clients"), on MariaDB: no burst under SKIP, one run under FIRE_ONCE_NOW, a ONE_SHOT
 * whose instant came while disabled runs once. The node never leads (another owner holds the leader lock): the test
 * runs each firing pass, and moves `paused_at` back instead of waiting out the disable.
 */
describe('re-enabling a client: the misfire policy applies (MariaDB + Redis)', () => {
  const ns = uniqueNamespace('int-reenable');
  let node: TestNode;
  let redis: Redis;
  let admin: AppClient;
  const lock = new RedisKeys(ns).lock('leader');

  beforeAll(async () => {
    redis = new Redis(REDIS_URL);
    await redis.set(lock, 'someone-else', 'PX', 600_000);
    node = await startNode(
      clusterEnv(ns, { ROLES: 'api,scheduler', MISFIRE_THRESHOLD_MS: '1000', LOG_LEVEL: 'error' }),
    );
    admin = await appClient(node, 'reen-admin', [Scope.ADMIN]);
  }, 60_000);

  afterAll(async () => {
    await node?.close();
    await redis?.del(lock);
    redis?.disconnect();
  });

  const setEnabled = async (appId: string, enabled: boolean) =>
    expect((await admin.request('PATCH', `/api/clients/${appId}`, { enabled })).status).toBe(200);
  const firePass = () => node.app.get(TriggerService).firePass();
  const rows = async (jobId: string): Promise<Row[]> =>
    (
      await node.ds.query(
        'SELECT status, trigger_source AS source, fire_time AS fireTime FROM job_instance WHERE job_id = ? ' +
          'ORDER BY fire_time',
        [jobId],
      )
    ).map((r: Row) => ({ ...r, fireTime: Number(r.fireTime) }));

  /**
   * A 1-s FIXED_RATE job of a new app under `policy`, whose client was disabled 4.5 s ago (paused_at moved back),
   * then enabled and one firing pass run. @returns the app, the job, the pause time and the pass's start.
   */
  async function disabledFor4s(policy: string): Promise<{ app: AppClient; job: Job; pausedAt: number; pass: number }> {
    const app = await appClient(node, 'reen');
    const body = { code: 'every-second', handler: 'noop', triggerType: 'FIXED_RATE', triggerExpr: '1000' };
    const created = await app.request<Job>('POST', '/api/jobs', { ...body, misfirePolicy: policy });
    expect(created.status).toBe(201);
    await setEnabled(app.appId, false);
    const pausedAt = Date.now() - 4500;
    await node.ds.query('UPDATE job_definition SET paused_at = ? WHERE id = ?', [pausedAt, created.body.id]);
    await setEnabled(app.appId, true);
    const job = (await app.request<Job>('GET', `/api/jobs/${created.body.id}`)).body;
    expect(job).toMatchObject({
      enabled: true,
      pausedReason: null,
      nextFireTime: new Date(pausedAt + 1000).toISOString(),
    });
    const pass = Date.now();
    await firePass();
    return { app, job, pausedAt, pass };
  }

  /** The 1-s grid after `pausedAt` up to `until`: the fires missed while disabled (at least 4, the pass may be slow). */
  const missedUntil = (pausedAt: number, until: number) =>
    Array.from({ length: Math.floor((until - pausedAt) / 1000) }, (_, k) => pausedAt + (k + 1) * 1000);

  /** The next fire is the grid's first after the pass (no catch-up); at its time one pass makes one SCHEDULE run. */
  async function resumesOnSchedule(app: AppClient, jobId: string, pausedAt: number, pass: number): Promise<number> {
    const next = Date.parse((await app.request<Job>('GET', `/api/jobs/${jobId}`)).body.nextFireTime as string);
    expect((next - pausedAt) % 1000).toBe(0);
    expect(next).toBeGreaterThan(pass);
    await sleep(Math.max(0, next - Date.now()) + 50); // the schedule's own time, on purpose
    const before = (await rows(jobId)).length;
    await firePass();
    const made = (await rows(jobId)).slice(before);
    expect(made.map((r) => [r.source, r.fireTime])).toEqual([[TriggerSource.SCHEDULE, next]]);
    expect((await app.request('POST', `/api/jobs/${jobId}/pause`)).status).toBe(200);
    return next;
  }

  it('SKIP: the 4 fires missed while disabled are recorded as skipped, none run, then it runs on schedule', async () => {
    const { app, job, pausedAt, pass } = await disabledFor4s('SKIP');
    const made = await rows(job.id);
    const missed = missedUntil(pausedAt, made.at(-1)?.fireTime ?? 0);
    expect(missed.length).toBeGreaterThanOrEqual(4);
    expect(made.map((r) => [r.status, r.source, r.fireTime])).toEqual(
      missed.map((t) => ['CANCELLED', TriggerSource.MISFIRE, t]),
    );
    // The last one recorded is the latest missed: the schedule goes on from the next.
    expect(await resumesOnSchedule(app, job.id, pausedAt, pass)).toBe((made.at(-1)?.fireTime ?? 0) + 1000);
  }, 30_000);

  it('FIRE_ONCE_NOW: exactly one MISFIRE run, for the latest missed time, then on schedule', async () => {
    const { app, job, pausedAt, pass } = await disabledFor4s('FIRE_ONCE_NOW');
    const made = await rows(job.id);
    expect(made.map((r) => r.source)).toEqual([TriggerSource.MISFIRE]);
    expect(missedUntil(pausedAt, made[0].fireTime).at(-1)).toBe(made[0].fireTime);
    expect(made[0].fireTime).toBeGreaterThanOrEqual(pausedAt + 4000);
    expect(made[0].status).not.toBe('CANCELLED');
    // Its run is for the latest missed time: the schedule goes on from the next.
    expect(await resumesOnSchedule(app, job.id, pausedAt, pass)).toBe(made[0].fireTime + 1000);
  }, 30_000);

  it('a ONE_SHOT whose instant came while disabled runs once (FIRE_ONCE_NOW); one due before the pause stays paused', async () => {
    const app = await appClient(node, 'reen-once');
    const at = new Date(Date.now() + 3_600_000).toISOString();
    const make = async (code: string) =>
      (await app.request<Job>('POST', '/api/jobs', { code, handler: 'noop', triggerType: 'ONE_SHOT', triggerExpr: at }))
        .body.id;
    const [during, before] = [await make('due-while-disabled'), await make('due-before-pause')];
    await setEnabled(app.appId, false);
    const pausedAt = Date.now() - 5000;
    const instant = (t: number) => new Date(t).toISOString();
    const set = 'UPDATE job_definition SET paused_at = ?, trigger_expr = ? WHERE id = ?';
    await node.ds.query(set, [pausedAt, instant(pausedAt + 2000), during]);
    await node.ds.query(set, [pausedAt, instant(pausedAt - 1000), before]);
    await setEnabled(app.appId, true);
    expect((await app.request<Job>('GET', `/api/jobs/${before}`)).body).toMatchObject({ enabled: false });
    await firePass();
    await firePass();
    expect((await rows(during)).map((r) => [r.source, r.fireTime])).toEqual([[TriggerSource.MISFIRE, pausedAt + 2000]]);
    expect(await rows(before)).toEqual([]);
  }, 30_000);
});
