import { TickwheelClient } from '../../src/client/tickwheel-client.js';
import { DueDetectorService } from '../../src/modules/trigger/due-detector.service.js';
import { MetricsService } from '../../src/modules/observability/index.js';
import { HttpReceiver, startReceiver } from '../utils/http-receiver.js';
import { clusterEnv, signedClient, startNode, TestNode, uniqueNamespace, waitFor } from '../utils/test-node.js';

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
    const job = await client.request('POST', '/api/jobs', {
      code: 'hourly', handler: 'http', triggerType: 'CRON', triggerExpr: '0 15 * * * *', timeZone: 'Asia/Shanghai', enabled: false,
      params: { url: `${receiver.url}/bf` },
    });
    expect(job.status).toBe(201);
    const body = { from: '2026-11-29T00:00:00Z', to: '2026-11-29T05:59:59Z' };
    const res = await client.request<{ created: number; existing: number; fireTimes: string[] }>('POST', '/api/jobs/hourly/backfill', body);
    expect(res.status).toBe(200);
    expect(res.body.fireTimes).toEqual(['00', '01', '02', '03', '04', '05'].map((h) => `2026-11-29T${h}:15:00.000Z`));
    expect(res.body.created).toBe(6);
    await waitFor('backfilled runs', async () => {
      const rows: Array<{ c: string }> = await node.ds.query("SELECT COUNT(*) AS c FROM job_instance WHERE job_code = 'hourly' AND namespace = ? AND status = 'SUCCESS' AND trigger_source = 'BACKFILL'", [ns]);
      return Number(rows[0].c) === 6;
    }, 15_000);
    const again = await client.request<{ created: number; existing: number }>('POST', '/api/jobs/hourly/backfill', body);
    expect(again.body).toMatchObject({ created: 0, existing: 6 });
    const wider = await client.request<{ created: number; existing: number }>('POST', '/api/jobs/hourly/backfill', { from: '2026-11-29T00:00:00Z', to: '2026-11-29T07:30:00Z' });
    expect(wider.body).toMatchObject({ created: 2, existing: 6 });
  }, 30_000);

  it('should refuse ranges that are too large, inverted, or without a zone', async () => {
    await client.request('POST', '/api/jobs', { code: 'secondly', handler: 'http', triggerType: 'CRON', triggerExpr: '* * * * * *', enabled: false, params: { url: `${receiver.url}/x` } });
    const big = await client.request<{ field: string }>('POST', '/api/jobs/secondly/backfill', { from: '2026-11-29T00:00:00Z', to: '2026-11-29T01:00:00Z' });
    expect(big.status).toBe(400);
    expect(big.body.field).toBe('to');
    expect((await client.request('POST', '/api/jobs/secondly/backfill', { from: '2026-11-29T01:00:00Z', to: '2026-11-29T00:00:00Z' })).status).toBe(400);
    expect((await client.request('POST', '/api/jobs/secondly/backfill', { from: '2026-11-29T00:00:00', to: '2026-11-29T00:00:05Z' })).status).toBe(400);
  });

  it('should count and log a fire that is overdue without a ledger row, once', async () => {
    const job = await client.request<{ id: string }>('POST', '/api/jobs', { code: 'stuck', handler: 'http', triggerType: 'FIXED_RATE', triggerExpr: '3600000', params: { url: `${receiver.url}/s` } });
    // Simulate a fire the scheduler never wrote: push next_fire_time into the past behind the leader's back
    // and keep the leader from firing it by disabling the loop's view (the detector reads enabled jobs only).
    const metrics = node.app.get(MetricsService);
    const before = (await metrics.dueNotFired.get()).values[0]?.value ?? 0;
    await node.ds.query('UPDATE job_definition SET next_fire_time = ? WHERE id = ?', [Date.now() - 60_000, job.body.id]);
    const found = await node.app.get(DueDetectorService).check();
    expect(found).toBeGreaterThanOrEqual(1);
    expect(await node.app.get(DueDetectorService).check()).toBe(0); // the same fire is not counted twice
    expect((await metrics.dueNotFired.get()).values[0].value).toBeGreaterThan(before);
  });
});
