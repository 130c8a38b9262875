import { Redis } from 'ioredis';
import { TickwheelClient } from '../../src/client/tickwheel-client.js';
import { RedisKeys } from '../../src/modules/coordination/index.js';
import { DueDetectorService } from '../../src/modules/trigger/due-detector.service.js';
import { MetricsService } from '../../src/modules/observability/index.js';
import { HttpReceiver, startReceiver } from '../utils/http-receiver.js';
import {
  clusterEnv,
  REDIS_URL,
  signedClient,
  startNode,
  TestNode,
  uniqueNamespace,
  waitFor,
} from '../utils/test-node.js';
import { createJob } from '../utils/jobs.js';

describe('backfill and the due-but-not-fired detector (cluster shape)', () => {
  const ns = uniqueNamespace('e2e-backfill');
  let node: TestNode;
  let receiver: HttpReceiver;
  let client: TickwheelClient;

  beforeAll(async () => {
    receiver = await startReceiver();
    node = await startNode(clusterEnv(ns, { DUE_ALERT_AFTER_MS: '2000' }));
    client = await signedClient(node);
  });
  afterAll(async () => {
    await node?.close();
    await receiver?.close();
  });

  it('should create one BACKFILL instance per scheduled time of the range, and nothing on a repeat', async () => {
    await createJob(client, {
      code: 'hourly',
      handler: 'http',
      triggerType: 'CRON',
      triggerExpr: '0 15 * * * *',
      timeZone: 'Asia/Shanghai',
      enabled: false,
      params: { url: `${receiver.url}/bf` },
    });
    const body = { from: '2026-11-29T00:00:00Z', to: '2026-11-29T05:59:59Z' };
    const res = await client.request<{ created: number; existing: number; fireTimes: string[] }>(
      'POST',
      '/api/jobs/hourly/backfill',
      body,
    );
    expect(res.status).toBe(200);
    expect(res.body.fireTimes).toEqual(['00', '01', '02', '03', '04', '05'].map((h) => `2026-11-29T${h}:15:00.000Z`));
    expect(res.body.created).toBe(6);
    await waitFor(
      'backfilled runs',
      async () => {
        const rows: Array<{ c: string }> = await node.ds.query(
          "SELECT COUNT(*) AS c FROM job_instance WHERE job_code = 'hourly' AND namespace = ? AND status = 'SUCCESS' AND trigger_source = 'BACKFILL'",
          [ns],
        );
        return Number(rows[0].c) === 6;
      },
      60_000,
    );
    const again = await client.request<{ created: number; existing: number }>(
      'POST',
      '/api/jobs/hourly/backfill',
      body,
    );
    expect(again.body).toMatchObject({ created: 0, existing: 6 });
    const wider = await client.request<{ created: number; existing: number }>('POST', '/api/jobs/hourly/backfill', {
      from: '2026-11-29T00:00:00Z',
      to: '2026-11-29T07:30:00Z',
    });
    expect(wider.body).toMatchObject({ created: 2, existing: 6 });
  }, 90_000);

  it('should refuse ranges that are too large, inverted, or without a zone', async () => {
    await client.request('POST', '/api/jobs', {
      code: 'secondly',
      handler: 'http',
      triggerType: 'CRON',
      triggerExpr: '* * * * * *',
      enabled: false,
      params: { url: `${receiver.url}/x` },
    });
    const big = await client.request<{ field: string }>('POST', '/api/jobs/secondly/backfill', {
      from: '2026-11-29T00:00:00Z',
      to: '2026-11-29T01:00:00Z',
    });
    expect(big.status).toBe(400);
    expect(big.body.field).toBe('to');
    expect(
      (
        await client.request('POST', '/api/jobs/secondly/backfill', {
          from: '2026-11-29T01:00:00Z',
          to: '2026-11-29T00:00:00Z',
        })
      ).status,
    ).toBe(400);
    expect(
      (
        await client.request('POST', '/api/jobs/secondly/backfill', {
          from: '2026-11-29T00:00:00',
          to: '2026-11-29T00:00:05Z',
        })
      ).status,
    ).toBe(400);
  });

  it('should count a fire overdue without a ledger row once, only DUE_ALERT_AFTER_MS after a takeover', async () => {
    // Simulate a fire the scheduler never wrote: push next_fire_time into the past behind the leader's back.
    // A leading scheduler would scan it within a second (TRIGGER_SCAN_INTERVAL_MS) and fire it, and its own
    // periodic detector would count it before the test's check: a race the test lost whenever the machine
    // paused it between the UPDATE and the check. So this runs on a scheduler node of its own namespace that
    // never leads (another owner holds the leader lock): nothing fires the job and nothing else checks.
    const quiet = uniqueNamespace('e2e-due');
    const redis = new Redis(REDIS_URL);
    const lock = new RedisKeys(quiet).lock('leader');
    expect(await redis.set(lock, 'someone-else', 'PX', 600_000)).toBe('OK');
    const standby = await startNode(clusterEnv(quiet, { DUE_ALERT_AFTER_MS: '2000' }));
    try {
      const standbyClient = await signedClient(standby);
      const job = await createJob(standbyClient, {
        code: 'stuck',
        handler: 'http',
        triggerType: 'FIXED_RATE',
        triggerExpr: '3600000',
        params: { url: `${receiver.url}/s` },
      });
      const metrics = standby.app.get(MetricsService);
      const before = (await metrics.dueNotFired.get()).values[0]?.value ?? 0;
      await standby.ds.query('UPDATE job_definition SET next_fire_time = ? WHERE id = ?', [
        Date.now() - 60_000,
        job.id,
      ]);
      const detector = standby.app.get(DueDetectorService);
      // A leader that took over just now has had no time to apply the misfire policy: not (yet) a miss.
      expect(await detector.check(Date.now())).toBe(0);
      expect(await detector.check(Date.now() - 1000)).toBe(0); // still within DUE_ALERT_AFTER_MS of the takeover
      expect((await metrics.dueNotFired.get()).values[0]?.value ?? 0).toBe(before);
      expect(await detector.check(Date.now() - 3000)).toBe(1); // the only enabled job of the namespace
      expect(await detector.check()).toBe(0); // the same fire is not counted twice
      expect((await metrics.dueNotFired.get()).values[0].value).toBe(before + 1);
      const rows: Array<{ c: string }> = await standby.ds.query(
        'SELECT COUNT(*) AS c FROM job_instance WHERE namespace = ?',
        [quiet],
      );
      expect(Number(rows[0].c)).toBe(0); // it really was not fired meanwhile
    } finally {
      await standby.close();
      await redis.del(lock);
      redis.disconnect();
    }
  }, 60_000);
});
