import { DEFAULT_SCOPES, Scope } from '../../src/modules/metadata/index.js';
import { TickwheelClient } from '../../src/client/tickwheel-client.js';
import { expectProblem } from '../utils/tenancy.js';
import { signedClient, standaloneEnv, startNode, TestNode } from '../utils/test-node.js';
import { createJob } from '../utils/jobs.js';

type Fire = { fireTime: string; local: string; note?: { kind: string; detail: string } };
type Preview = { triggerType: string; triggerExpr: string; timeZone: string; from: string; fireTimes: Fire[] };

/**
 * POST /api/schedules/preview (docs/api.md "Schedule preview"): a signed jobs:read route answering the scheduler's
 * next fire times with DST notes, validated like a job's trigger; and the job view's nextFires beside nextFireTimes.
 */
describe('schedule preview (standalone)', () => {
  let node: TestNode;
  let client: TickwheelClient;

  beforeAll(async () => {
    node = await startNode(standaloneEnv());
    client = await signedClient(node, `preview-${Date.now()}`);
  }, 60_000);

  afterAll(async () => node?.close());

  const preview = (body: Record<string, unknown>) => client.request<Preview>('POST', '/api/schedules/preview', body);

  it('should answer 200 with the fire times and a note on the one the spring-forward gap moved', async () => {
    const res = await preview({
      triggerExpr: '0 30 2 * * *',
      timeZone: 'America/New_York',
      from: '2026-03-07T00:00:00Z',
      count: 3,
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      triggerType: 'CRON',
      triggerExpr: '0 30 2 * * *',
      timeZone: 'America/New_York',
      from: '2026-03-07T00:00:00.000Z',
      fireTimes: [
        { fireTime: '2026-03-07T07:30:00.000Z', local: '2026-03-07T02:30:00-05:00' },
        {
          fireTime: '2026-03-08T07:30:00.000Z',
          local: '2026-03-08T03:30:00-04:00',
          note: {
            kind: 'GAP_SHIFTED',
            detail:
              '02:30 does not exist on 2026-03-08 in America/New_York (clocks go forward from 02:00 to 03:00, ' +
              'UTC-05:00 → UTC-04:00): fires 1 h later, at 03:30 (UTC-04:00)',
          },
        },
        { fireTime: '2026-03-09T06:30:00.000Z', local: '2026-03-09T02:30:00-04:00' },
      ],
    });
  });

  it('should default to CRON, UTC, now and 10 times, and preview a fixed rate and a one-shot', async () => {
    const before = Date.now();
    const res = await preview({ triggerExpr: '*/5 * * * * *' });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ triggerType: 'CRON', timeZone: 'UTC' });
    expect(Date.parse(res.body.from)).toBeGreaterThanOrEqual(before - 1000);
    expect(res.body.fireTimes).toHaveLength(10);
    const nulls = { triggerType: null, timeZone: null, from: null, count: null };
    const asOmitted = await preview({ triggerExpr: '0 0 * * *', ...nulls });
    expect(asOmitted.status).toBe(200);
    expect(asOmitted.body).toMatchObject({ triggerType: 'CRON', timeZone: 'UTC' });
    expect(asOmitted.body.fireTimes).toHaveLength(10);
    const rate = await preview({ triggerType: 'FIXED_RATE', triggerExpr: '60000', from: '2026-01-01T00:00:00+01:00' });
    expect(rate.body.fireTimes.slice(0, 2)).toEqual([
      { fireTime: '2025-12-31T23:01:00.000Z', local: '2025-12-31T23:01:00+00:00' },
      { fireTime: '2025-12-31T23:02:00.000Z', local: '2025-12-31T23:02:00+00:00' },
    ]);
    const once = { triggerType: 'ONE_SHOT', triggerExpr: '2026-06-01T12:00:00Z', timeZone: 'Europe/Berlin' };
    expect((await preview({ ...once, from: '2026-01-01T00:00:00Z' })).body.fireTimes).toEqual([
      { fireTime: '2026-06-01T12:00:00.000Z', local: '2026-06-01T14:00:00+02:00' },
    ]);
    expect((await preview({ ...once, from: '2026-07-01T00:00:00Z' })).body.fireTimes).toEqual([]);
  });

  it.each([
    ['triggerExpr', { triggerExpr: '0 0 30 2 *' }],
    ['triggerExpr', { triggerExpr: '61 * * * *' }],
    ['triggerExpr', {}],
    ['triggerExpr', { triggerType: 'FIXED_DELAY', triggerExpr: '10' }],
    ['timeZone', { triggerExpr: '0 * * * *', timeZone: 'Mars/Olympus' }],
    ['triggerType', { triggerType: 'API', triggerExpr: '' }],
    ['from', { triggerExpr: '0 * * * *', from: '2026-03-07T00:00:00' }],
    ['from', { triggerExpr: '0 * * * *', from: '3026-03-07T00:00:00Z' }],
    ['count', { triggerExpr: '0 * * * *', count: 101 }],
    ['count', { triggerExpr: '0 * * * *', count: 0 }],
    ['count', { triggerExpr: '0 * * * *', count: 1.5 }],
  ])('should answer a 400 naming %s for %j', async (field, body) => {
    expectProblem(await preview(body), 400, { field });
  });

  it('should answer a 403 naming jobs:read to an app without it', async () => {
    const others = DEFAULT_SCOPES.filter((s) => s !== Scope.JOBS_READ);
    const without = await signedClient(node, `preview-noread-${Date.now()}`, others);
    const res = await without.request('POST', '/api/schedules/preview', { triggerExpr: '0 * * * *' });
    expectProblem(res, 403, { scope: Scope.JOBS_READ });
  });

  it("should show the job view's next fires with their local times beside nextFireTimes", async () => {
    const body = { code: `preview-job-${Date.now()}`, handler: 'noop', triggerType: 'CRON', enabled: false };
    const created = await createJob(client, {
      ...body,
      triggerExpr: '0 30 2 * * *',
      timeZone: 'Europe/Berlin',
    });
    const res = await client.request<{ nextFireTimes: string[]; nextFires: Fire[] }>('GET', `/api/jobs/${created.id}`);
    expect(res.status).toBe(200);
    expect(res.body.nextFires.map((f) => f.fireTime)).toEqual(res.body.nextFireTimes);
    for (const f of res.body.nextFires) expect(f.local).toMatch(/^\d{4}-\d{2}-\d{2}T02:30:00\+0[12]:00$/);
    const direct = await preview({
      triggerExpr: '0 30 2 * * *',
      timeZone: 'Europe/Berlin',
      from: new Date(Date.parse(res.body.nextFireTimes[0]) - 1).toISOString(),
      count: 5,
    });
    expect(direct.body.fireTimes).toEqual(res.body.nextFires);
  });
});
