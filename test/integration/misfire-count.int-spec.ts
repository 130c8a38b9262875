import { Redis } from 'ioredis';
import { TickwheelClient } from '../../src/client/tickwheel-client.js';
import { RedisKeys } from '../../src/modules/coordination/index.js';
import { TriggerSource } from '../../src/modules/metadata/index.js';
import { MetricsService } from '../../src/modules/observability/index.js';
import { TriggerService } from '../../src/modules/trigger/trigger.service.js';
import { sleep } from '../utils/async.js';
import { clusterEnv, REDIS_URL, signedClient, startNode, TestNode, uniqueNamespace } from '../utils/test-node.js';

/**
 * `tickwheel_misfires_total{policy}` counts every missed fire a misfire policy handled (docs/observability.md), on
 * MariaDB: a job firing every 2 s whose scheduler stopped for about 17 s has 9 missed fire times when a firing pass runs. The
 * node never leads (another owner holds the leader lock), so the test alone runs the pass.
 */
describe('tickwheel_misfires_total (MariaDB + Redis)', () => {
  const ns = uniqueNamespace('int-misfires');
  let node: TestNode;
  let redis: Redis;
  let client: TickwheelClient;
  const lock = new RedisKeys(ns).lock('leader');

  beforeAll(async () => {
    redis = new Redis(REDIS_URL);
    await redis.set(lock, 'someone-else', 'PX', 600_000);
    node = await startNode(clusterEnv(ns, { ROLES: 'api,scheduler', MISFIRE_THRESHOLD_MS: '5000' }));
    client = await signedClient(node);
  });

  afterAll(async () => {
    await node?.close();
    await redis?.del(lock);
    redis?.disconnect();
  });

  const counted = async (policy: string) =>
    (await node.app.get(MetricsService).misfires.get()).values.find((v) => v.labels.policy === policy)?.value ?? 0;

  /**
   * A job every 2 s under `policy` whose next fire was 16-17 s ago (a stopped scheduler), then one firing pass.
   * @returns the job's rows by status and trigger source, and how much the policy's counter moved.
   */
  async function stoppedFor17s(code: string, policy: string) {
    const body = { code, handler: 'noop', triggerType: 'CRON', triggerExpr: '*/2 * * * * *', misfirePolicy: policy };
    const res = await client.request<{ id: string }>('POST', '/api/jobs', body);
    expect(res.status).toBe(201);
    // Within the first second of an even second, so exactly 9 times (T, T+2 s … T+16 s) are due, with 1 s to spare.
    while (Date.now() % 2000 >= 1000) await sleep(50); // waits for a clock position on purpose
    const now = Date.now();
    const next = now - (now % 2000) - 16_000;
    await node.ds.query('UPDATE job_definition SET next_fire_time = ? WHERE id = ?', [next, res.body.id]);
    const before = await counted(policy);
    await node.app.get(TriggerService).firePass();
    const rows: Array<{ status: string; source: string; n: string | number }> = await node.ds.query(
      'SELECT status, trigger_source AS source, COUNT(*) AS n FROM job_instance WHERE job_id = ? ' +
        'GROUP BY status, trigger_source',
      [res.body.id],
    );
    await client.request('POST', `/api/jobs/${code}/pause`);
    const rowsBy = Object.fromEntries(rows.map((r) => [`${r.status} ${r.source}`, Number(r.n)]));
    return { rows: rowsBy, counted: (await counted(policy)) - before };
  }

  it('should count each of the 9 fires SKIP recorded as skipped, not 1', async () => {
    const { rows, counted: n } = await stoppedFor17s('skip-every-2s', 'SKIP');
    expect(rows).toEqual({ [`CANCELLED ${TriggerSource.MISFIRE}`]: 9 });
    expect(n).toBe(9);
  }, 60_000);

  it('should count each of the 9 fires FIRE_ALL ran late', async () => {
    const { rows, counted: n } = await stoppedFor17s('all-every-2s', 'FIRE_ALL');
    const made = Object.values(rows).reduce((a, b) => a + b, 0);
    expect(made).toBe(9);
    expect(n).toBe(9);
  }, 60_000);

  it('should count the 9 missed fires FIRE_ONCE_NOW folded into its one run', async () => {
    const { rows, counted: n } = await stoppedFor17s('once-every-2s', 'FIRE_ONCE_NOW');
    expect(Object.values(rows).reduce((a, b) => a + b, 0)).toBe(1);
    expect(n).toBe(9);
  }, 60_000);
});
