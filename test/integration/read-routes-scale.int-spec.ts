import type { QueryDeepPartialEntity } from 'typeorm';
import { newId } from '../../src/common/index.js';
import {
  BackoffKind,
  JobDefinition,
  MisfirePolicy,
  OverlapPolicy,
  RoutingStrategy,
  ScheduleState,
  TriggerType,
} from '../../src/modules/metadata/index.js';
import { deleteNamespaceRows } from '../utils/namespace-rows.js';
import { appClient } from '../utils/tenancy.js';
import {
  type AppClient,
  clusterEnv,
  standaloneEnv,
  startNode,
  type TestNode,
  uniqueNamespace,
} from '../utils/test-node.js';

const JOBS = 10_000;
const DAY = 86_400_000;

/** A deterministic stream of integers below n (an LCG): the same schedules on every run. */
function picker(seed = 7): (n: number) => number {
  let s = seed;
  return (n) => {
    s = (s * 1_103_515_245 + 12_345) % 2 ** 31;
    return s % n;
  };
}

/** Crontab-like schedules: daily, hourly, every n minutes, weekly, monthly, working days; mostly UTC. */
function crontabLike(i: number, pick: (n: number) => number): { expr: string; zone: string } {
  const [m, h] = [pick(60), pick(24)];
  const kind = i % 10;
  const expr =
    kind < 4
      ? `${m} ${h} * * *`
      : kind < 6
        ? `${m} * * * *`
        : kind < 7
          ? `*/${[5, 10, 15, 30][pick(4)]} * * * *`
          : kind < 8
            ? `${m} ${h} * * ${pick(7)}`
            : kind < 9
              ? `${m} ${h} ${1 + pick(28)} * *`
              : `0 ${h} * * 1-5`;
  const zone = ['UTC', 'UTC', 'UTC', 'UTC', 'UTC', 'UTC', 'UTC', 'UTC', 'Europe/Berlin', 'America/New_York'][pick(10)];
  return { expr, zone };
}

/**
 * The read routes at the size one app may reach (MAX_JOBS_PER_APP, 10,000 jobs) on both engines: the job list
 * pages by code from the index and GET /api/schedules/load answers within a second of CPU, the first call of the
 * process (every expression compiled then) included (0.2-0.55 s of wall time alone on the 2-core test machine). The rows are inserted; their next fire is a month away, so a
 * standalone scheduler leaves them alone.
 */
describe.each([
  ['standalone (SQLite)', () => standaloneEnv({ LOG_LEVEL: 'error' })],
  ['cluster (MariaDB + Redis)', () => clusterEnv(uniqueNamespace('int-scale'), { LOG_LEVEL: 'error', ROLES: 'api' })],
])('read routes with 10,000 jobs of one app (%s)', (_shape, env) => {
  let node: TestNode;
  let a: AppClient;
  /**
   * The call's answer, its wall time and the CPU this process spent meanwhile (the node runs in it): the CPU is what
   * the bound holds, as the wall time also counts whatever else runs on this shared machine (both are printed).
   */
  const timed = async <T>(what: string, call: () => Promise<{ status: number; body: T }>) => {
    const [started, cpu] = [performance.now(), process.cpuUsage()];
    const res = await call();
    const ms = performance.now() - started;
    const used = process.cpuUsage(cpu);
    const cpuMs = (used.user + used.system) / 1000;
    expect({ what, status: res.status }).toEqual({ what, status: 200 });
    process.stdout.write(`${_shape} ${what}: ${ms.toFixed(0)} ms (CPU ${cpuMs.toFixed(0)} ms)\n`);
    expect(cpuMs).toBeLessThan(1000);
    expect(ms).toBeLessThan(3000);
    return { body: res.body, ms };
  };

  beforeAll(async () => {
    node = await startNode(env());
    a = await appClient(node, 'scale');
    const pick = picker();
    const now = Date.now();
    const rows = Array.from({ length: JOBS + 3 }, (_, i) => {
      const { expr, zone } = i < JOBS ? crontabLike(i, pick) : { expr: '* * * * * *', zone: 'UTC' };
      return Object.assign(new JobDefinition(), {
        id: newId(),
        namespace: node.config.namespace,
        appId: a.appId,
        code: i < JOBS ? `job-${String(i).padStart(5, '0')}` : `dense-${i - JOBS}`,
        description: i % 7 === 0 ? `Report ${i}` : null,
        handler: 'noop',
        callbackUrl: null,
        triggerType: TriggerType.CRON,
        triggerExpr: expr,
        timeZone: zone,
        params: {},
        routingStrategy: RoutingStrategy.ROUND_ROBIN,
        routingKey: null,
        shardTotal: 1,
        shardParams: null,
        misfirePolicy: MisfirePolicy.FIRE_ONCE_NOW,
        overlapPolicy: OverlapPolicy.ALLOW,
        maxConcurrency: 0,
        timeoutMs: 60_000,
        retryMax: 0,
        retryBackoffMs: 1000,
        retryBackoffKind: BackoffKind.FIXED,
        heartbeatTimeoutMs: 0,
        enabled: i >= JOBS || i % 50 !== 1,
        completedAt: null,
        scheduleState: ScheduleState.OK,
        scheduleError: null,
        nextFireTime: now + 30 * DAY,
        lastFireTime: null,
        version: 1,
        createdAt: now,
        updatedAt: now,
        createdBy: a.appId,
        updatedBy: a.appId,
      });
    });
    for (let i = 0; i < rows.length; i += 500)
      await node.ds
        .getRepository(JobDefinition)
        .insert(rows.slice(i, i + 500) as QueryDeepPartialEntity<JobDefinition>[]);
  }, 120_000);

  afterAll(async () => {
    if (node?.config.shape === 'cluster')
      await deleteNamespaceRows(node.ds, node.config.namespace, { definitions: true });
    await node?.close();
  });

  it('should answer the fire load of 10,000 crontab-like jobs and 3 every-second ones within a second of CPU', async () => {
    type Load = { buckets: number[]; jobs: number; estimatedJobs: number; herds: unknown[] };
    const enabled = JOBS + 3 - JOBS / 50;
    for (const [what, query] of [
      ['load 24 h (first call)', ''],
      ['load 24 h (again)', ''],
      ['load 48 h', '?hours=48&herd=50'],
    ]) {
      const { body } = await timed<Load>(what, () => a.request<Load>('GET', `/api/schedules/load${query}`));
      expect(body).toMatchObject({ jobs: enabled, estimatedJobs: 3 });
      expect(body.buckets.every((n) => n >= 3 * 60)).toBe(true);
    }
  });

  it('should page, search and filter the job list in code order, each page within a second of CPU', async () => {
    type Page = { total: number; items: Array<{ code: string; lastRun: unknown }> };
    const get = (what: string, query: string) => timed<Page>(what, () => a.request<Page>('GET', `/api/jobs${query}`));
    const first = await get('jobs first page', '?limit=50');
    expect(first.body.total).toBe(JOBS + 3);
    expect(first.body.items.map((j) => j.code)).toEqual(
      Array.from({ length: 50 }, (_, i) => `dense-${i}`)
        .slice(0, 3)
        .concat(Array.from({ length: 47 }, (_, i) => `job-${String(i).padStart(5, '0')}`)),
    );
    const deep = await get('jobs deep page', '?offset=9953&limit=50');
    expect(deep.body.items.map((j) => j.code).at(-1)).toBe('job-09999');
    const search = await get('jobs q=REPORT 99', '?q=REPORT%2099&limit=500');
    const reports = Array.from({ length: JOBS }, (_, i) => i).filter((i) => i % 7 === 0 && `${i}`.startsWith('99'));
    expect(search.body.items.map((j) => j.code)).toEqual(reports.map((i) => `job-${String(i).padStart(5, '0')}`));
    const paused = await get('jobs enabled=false', '?enabled=false&limit=500');
    expect(paused.body.total).toBe(JOBS / 50);
  });
});
