import { jest } from '@jest/globals';
import { Redis } from 'ioredis';
import { TickwheelClient } from '../../src/client/tickwheel-client.js';
import { COORDINATION, type CoordinationPort, RedisKeys } from '../../src/modules/coordination/index.js';
import {
  JobInstance,
  JobInstanceStatus as S,
  newJobInstance,
  StagedKind,
  TriggerSource,
} from '../../src/modules/metadata/index.js';
import { StagedTakeback } from '../../src/modules/trigger/staged-takeback.js';
import { TriggerService } from '../../src/modules/trigger/trigger.service.js';
import { clusterEnv, REDIS_URL, signedClient, startNode, TestNode, uniqueNamespace } from '../utils/test-node.js';
import { instanceQueries, type InstanceQueries } from '../utils/metadata-db.js';

/**
 * The guards of the takeback of unreleased staged fires (docs/trigger.md "Staging"), on MariaDB and Redis. The
 * node never leads (another owner holds the leader lock), so the test alone drives the takeback.
 */
const SCHEDULE = TriggerSource.SCHEDULE;

describe('StagedTakeback (MariaDB + Redis)', () => {
  const ns = uniqueNamespace('int-takeback');
  const fakeNode = `${ns}-exec`;
  let node: TestNode;
  let redis: Redis;
  let client: TickwheelClient;
  let coordination: CoordinationPort;
  let instances: InstanceQueries;
  const lock = new RedisKeys(ns).lock('leader');

  beforeAll(async () => {
    redis = new Redis(REDIS_URL);
    await redis.set(lock, 'someone-else', 'PX', 600_000);
    node = await startNode(clusterEnv(ns, { ROLES: 'api,scheduler', MISFIRE_THRESHOLD_MS: '5000' }));
    client = await signedClient(node);
    coordination = node.app.get<CoordinationPort>(COORDINATION);
    instances = instanceQueries(node.app);
  });

  afterAll(async () => {
    await coordination?.drainNode(fakeNode);
    await node?.close();
    await redis?.del(lock);
    redis?.disconnect();
  });

  async function job(code: string, body: Record<string, unknown>): Promise<string> {
    const res = await client.request<{ id: string }>('POST', '/api/jobs', { code, handler: 'noop', ...body });
    expect(res.status).toBe(201);
    return res.body.id;
  }

  /** A fire of `jobId` staged 2.5 s before `fireTime`, DISPATCHED to the fake node at its fire time (`patch` over it). */
  async function staged(jobId: string, fireTime: number, patch: Partial<JobInstance> = {}): Promise<string> {
    const row = Object.assign(
      newJobInstance(
        { namespace: ns, appId: 'int', jobId, handler: 'noop', fireTime, dueAt: fireTime, triggerSource: SCHEDULE },
        fireTime - 2500,
      ),
      { status: S.DISPATCHED, staged: StagedKind.FIRE, nodeId: fakeNode, dispatchedAt: fireTime, ...patch },
    );
    await instances.fires.insertIgnore(node.ds.manager, [row]);
    return row.id;
  }

  const jobRow = async (id: string) =>
    (
      (await node.ds.query('SELECT enabled, next_fire_time, completed_at FROM job_definition WHERE id = ?', [id])) as [
        { enabled: number; next_fire_time: string | null; completed_at: string | null },
      ]
    )[0];

  it('should take back only unreleased, unstarted fires of enabled or completed jobs, and re-plan them', async () => {
    const now = Date.now();
    const [old, older] = [now - 10_000, now - 20_000];
    const oneShot = await job('one-shot', {
      triggerType: 'ONE_SHOT',
      triggerExpr: new Date(now + 3_600_000).toISOString(),
    });
    await node.ds.query('UPDATE job_definition SET enabled = 0, next_fire_time = NULL, completed_at = ? WHERE id = ?', [
      old - 2500,
      oneShot,
    ]);
    const cron = await job('cron', { triggerType: 'CRON', triggerExpr: '0 0 1 1 *' });
    const paused = await job('paused', { triggerType: 'CRON', triggerExpr: '0 0 1 1 *' });
    expect((await client.request('POST', `/api/jobs/${paused}/pause`)).status).toBe(200);

    const taken = [await staged(oneShot, old), await staged(cron, older), await staged(cron, old)];
    const queued = await staged(cron, old - 1000); // released: on its node's queue
    await coordination.pushReady(fakeNode, [{ id: queued, appId: 'int', rank: 0 }]);
    const claimed = { status: S.RUNNING, staged: null, startedAt: old, fencingToken: 1 }; // the claim cleared the mark
    const running = await staged(cron, old - 2000, claimed);
    const young = await staged(cron, now - 1000); // within the threshold: the adoption's, not the misfire policy's
    const onPaused = await staged(paused, old);

    expect(await node.app.get(StagedTakeback).run()).toBe(3);
    const left = new Set(
      (await instances.reads.findByIds([...taken, queued, running, young, onPaused])).map((r) => r.id),
    );
    expect(taken.filter((id) => left.has(id))).toEqual([]);
    expect([queued, running, young, onPaused].every((id) => left.has(id))).toBe(true);
    // Re-planned in the takeback's transaction from the earliest taken back: MISFIRE rows, schedules moved on.
    const misfires = async (jobId: string) =>
      (
        (await node.ds.query('SELECT fire_time AS t FROM job_instance WHERE job_id = ? AND trigger_source = ?', [
          jobId,
          TriggerSource.MISFIRE,
        ])) as Array<{ t: string | number }>
      ).map((r) => Number(r.t));
    expect(await misfires(oneShot)).toEqual([old]);
    expect(await jobRow(oneShot)).toMatchObject({ enabled: 0, next_fire_time: null }); // completed by that fire
    expect((await jobRow(oneShot)).completed_at).not.toBeNull();
    expect(await misfires(cron)).toEqual([older]); // FIRE_ONCE_NOW: the latest scheduled time from the earliest
    expect(Number((await jobRow(cron)).next_fire_time)).toBeGreaterThan(now);
    expect(await jobRow(paused)).toMatchObject({ enabled: 0, next_fire_time: null });
    expect(await node.app.get(StagedTakeback).run()).toBe(0); // nothing twice
    await stopFiring('cron');
  }, 60_000);

  /**
   * A FIRE_ALL job firing every second: MISFIRE rows for the 5 s before `from` (an earlier leader's), staged fires
   * (PENDING: no executor) over `[from, to]` on its grid, its next fire the one after; @returns the job id.
   */
  async function everySecondWithStaged(code: string, from: number, to: number): Promise<string> {
    const id = await job(code, { triggerType: 'FIXED_RATE', triggerExpr: '1000', misfirePolicy: 'FIRE_ALL' });
    for (let t = from - 5000; t < from; t += 1000)
      await staged(id, t, {
        status: S.PENDING,
        nodeId: null,
        dispatchedAt: null,
        triggerSource: TriggerSource.MISFIRE,
        staged: null,
      });
    for (let t = from; t <= to; t += 1000) await staged(id, t, { status: S.PENDING, nodeId: null, dispatchedAt: null });
    await node.ds.query('UPDATE job_definition SET next_fire_time = ? WHERE id = ?', [to + 1000, id]);
    return id;
  }

  /**
   * Pauses job `code`: its staged fires ahead go (unstage) and the takeback passes a paused job by, so the fires no
   * leader releases here cannot be taken back by a later test's pass once they are MISFIRE_THRESHOLD_MS old.
   */
  async function stopFiring(code: string): Promise<void> {
    expect((await client.request('POST', `/api/jobs/${code}/pause`)).status).toBe(200);
  }

  /** Fire times of a job's ledger that are missing between its first and its last row (1 s grid). */
  async function holes(jobId: string): Promise<number[]> {
    const rows: Array<{ t: string | number }> = await node.ds.query(
      'SELECT fire_time AS t FROM job_instance WHERE job_id = ? ORDER BY fire_time',
      [jobId],
    );
    const times = new Set(rows.map((r) => Number(r.t)));
    const [first, last] = [Number(rows[0].t), Number(rows[rows.length - 1].t)];
    const out: number[] = [];
    for (let t = first; t <= last; t += 1000) if (!times.has(t)) out.push(t);
    return out;
  }

  it('should leave no hole in the ledger when the leader stops right after its takeback', async () => {
    const now = Date.now();
    const grid = now - (now % 1000);
    const id = await everySecondWithStaged('stop-after-takeback', grid - 12_000, grid + 2000);
    expect(await node.app.get(StagedTakeback).run()).toBeGreaterThan(0);
    // No firing pass follows (the leader stopped): the taken-back seconds must already have their rows.
    expect(await holes(id)).toEqual([]);
    await stopFiring('stop-after-takeback');
  }, 60_000);

  it('should take back no more fires than one FIRE_ALL pass re-plans', async () => {
    const now = Date.now();
    const grid = now - (now % 1000);
    const id = await everySecondWithStaged('long-backlog', grid - 130_000, grid + 2000);
    expect(await node.app.get(StagedTakeback).run()).toBeGreaterThan(90); // the newest seconds still go back
    await node.app.get(TriggerService).firePass();
    expect(await holes(id)).toEqual([]);
    await stopFiring('long-backlog');
  }, 60_000);

  it('should count a committed takeback whose release then fails (the reconciler pushes those fires)', async () => {
    const now = Date.now();
    const cron = await job('release-fails', { triggerType: 'CRON', triggerExpr: '0 0 1 1 *' });
    const gone = await staged(cron, now - 10_000);
    const trigger = node.app.get(TriggerService);
    const release = jest.spyOn(trigger, 'release').mockRejectedValueOnce(new Error('redis gone'));
    try {
      expect(await node.app.get(StagedTakeback).run()).toBe(1);
      expect(release).toHaveBeenCalledTimes(1);
    } finally {
      release.mockRestore();
    }
    expect(await instances.reads.findByIds([gone])).toEqual([]);
    expect(Number((await jobRow(cron)).next_fire_time)).toBeGreaterThan(now);
  }, 60_000);
});
