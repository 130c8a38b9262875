import { TickwheelClient } from '../../src/client/tickwheel-client.js';
import { MetricsService } from '../../src/modules/observability/index.js';
import { sleep } from '../utils/async.js';
import { createJob, type JobView, triggerNow } from '../utils/jobs.js';
import {
  clusterEnv,
  executorsBeat,
  signedClient,
  standaloneEnv,
  startNode,
  TestNode,
  uniqueNamespace,
  waitFor,
} from '../utils/test-node.js';

/**
 * Resharding by migration (docs/dispatch.md "Shard placement"): a SHARDING_BROADCAST job of 6 shards firing every
 * 2 s over executors a and b; c joins (its shards migrate one per fire, each after its run on the old owner
 * ended), then c leaves (its shards fail over at once, the rest migrate back one per fire).
 */
interface Run {
  id: string;
  fire: number;
  shard: number;
  node: string;
  status: string;
}
interface Attempt {
  instance: string;
  node: string;
  status: string;
  started: number;
  finished: number | null;
}

const SHARDS = 6;
const name = (nodeId: string): string => nodeId.split('-')[0];

describe('resharding by migration (cluster shape, executors joining and leaving)', () => {
  // Slow beats and a long offline threshold: a busy CI worker must not make a or b look dead (a failover).
  const beats = { HEARTBEAT_INTERVAL_MS: '1000', NODE_OFFLINE_AFTER_MS: '15000' };
  let ns: string;
  let api: TestNode;
  const nodes = new Map<string, TestNode>();
  let client: TickwheelClient;

  const executor = async (nodeName: string): Promise<void> => {
    nodes.set(nodeName, await startNode(clusterEnv(ns, { ROLES: 'executor', NODE_NAME: nodeName, ...beats })));
  };
  const leave = async (nodeName: string): Promise<void> => {
    await nodes.get(nodeName)?.close();
    nodes.delete(nodeName);
  };

  beforeAll(async () => {
    ns = uniqueNamespace('e2e-reshard');
    api = await startNode(clusterEnv(ns, { ROLES: 'api,scheduler', ...beats }));
    await executor('resa');
    await executor('resb');
    client = await signedClient(api);
    await executorsBeat(api, 2);
  }, 60_000);
  afterAll(async () => {
    for (const n of [...nodes.keys()]) await leave(n);
    await api?.close();
  });

  const runsOf = async (jobId: string): Promise<Run[]> =>
    (
      (await api.ds.query(
        'SELECT id, fire_time, shard_index, node_id, status FROM job_instance WHERE job_id = ? ORDER BY fire_time, shard_index',
        [jobId],
      )) as Array<Record<string, unknown>>
    ).map((r) => ({
      id: String(r.id),
      fire: Number(r.fire_time),
      shard: Number(r.shard_index),
      node: r.node_id === null ? '' : name(String(r.node_id)),
      status: String(r.status),
    }));
  const attemptsOf = async (jobId: string): Promise<Attempt[]> =>
    (
      (await api.ds.query(
        'SELECT a.instance_id, a.node_id, a.status, a.started_at, a.finished_at FROM job_attempt a ' +
          'JOIN job_instance i ON i.id = a.instance_id WHERE i.job_id = ?',
        [jobId],
      )) as Array<Record<string, unknown>>
    ).map((r) => ({
      instance: String(r.instance_id),
      node: name(String(r.node_id)),
      status: String(r.status),
      started: Number(r.started_at),
      finished: r.finished_at === null ? null : Number(r.finished_at),
    }));
  /** The fires of the job whose shards all succeeded, by fire time: shard index → node. */
  const doneFires = async (jobId: string): Promise<Array<{ fire: number; owners: string[]; runs: Run[] }>> => {
    const byFire = new Map<number, Run[]>();
    for (const r of await runsOf(jobId)) byFire.set(r.fire, [...(byFire.get(r.fire) ?? []), r]);
    return [...byFire]
      .filter(([, runs]) => runs.length === SHARDS && runs.every((r) => r.status === 'SUCCESS'))
      .map(([fire, runs]) => ({ fire, runs, owners: runs.map((r) => r.node) }));
  };

  it("should move one shard per fire after a join, each after its old run ended, and a left node's shards at once", async () => {
    const job = await createJob(client, {
      code: 'resharded',
      triggerType: 'CRON',
      triggerExpr: '*/2 * * * * *',
      routingStrategy: 'SHARDING_BROADCAST',
      shardTotal: SHARDS,
      params: { sleepMs: 300 },
    });
    const views: Array<JobView['resharding']> = [];
    const view = async (): Promise<JobView['resharding']> => {
      const { resharding } = (await client.request<JobView>('GET', `/api/jobs/${job.id}`)).body;
      views.push(resharding);
      return resharding;
    };
    /** Waits until no shard is pending (job view) and the last 3 fires after `since` ran on one placement. */
    const steady = async (what: string, since: number): Promise<string[]> => {
      let owners: string[] = [];
      await waitFor(
        what,
        async () => {
          const pending = (await view())?.pending ?? 0;
          const last = (await doneFires(job.id)).filter((f) => f.fire > since).slice(-3);
          owners = last[0]?.owners ?? [];
          return pending === 0 && last.length === 3 && last.every((f) => f.owners.join() === owners.join());
        },
        90_000,
        100,
      );
      return owners;
    };
    const before = await steady('three fires over a and b', 0);
    const settledTwo = await view();

    // c joins: the deal over three nodes differs from the placement, the shards are marked and move one by one.
    const joinAt = Date.now();
    await executor('resc');
    await executorsBeat(api, 3);
    // Fires routed before c beat (up to the stage lead ahead) still run on a and b.
    const withC = await steady('the reshard onto c to end', Date.now() + 3000);
    const joined = await view();
    const onC = withC.filter((n) => n === 'resc').length;

    // c leaves: its shards go to a and b at once (failover), the others migrate back to the two-node deal.
    const leaveAt = Date.now();
    await leave('resc');
    await steady('the reshard back onto a and b to end', leaveAt + 3000);
    const back = await view();
    await client.request('POST', `/api/jobs/${job.id}/pause`);
    await sleep(1000);

    const fires = await doneFires(job.id);
    const all = await runsOf(job.id);
    const attempts = await attemptsOf(job.id);
    // Every fire: each shard once (the ledger's key), on one node, which ran its one successful attempt.
    for (const r of all.filter((x) => x.status === 'SUCCESS')) {
      const mine = attempts.filter((a) => a.instance === r.id);
      expect({ run: r, nodes: [...new Set(mine.map((a) => a.node))] }).toEqual({ run: r, nodes: [r.node] });
      expect(mine.filter((a) => a.status === 'SUCCESS')).toHaveLength(1);
    }
    expect(all.filter((r) => r.fire < leaveAt + 5000).every((r) => r.status === 'SUCCESS')).toBe(true);
    expect(
      fires
        .filter((f) => f.fire < joinAt)
        .flatMap((f) => f.owners)
        .every((n) => n === 'resa' || n === 'resb'),
    ).toBe(true);

    const shardRuns = (shard: number, node: string, before: number) =>
      all.filter((r) => r.shard === shard && r.node === node && r.fire < before).map((r) => r.id);
    let migrations = 0;
    let failedOver = 0;
    for (let i = 1; i < fires.length; i++) {
      const [prev, cur] = [fires[i - 1], fires[i]];
      if (cur.fire < joinAt) continue;
      const changed = [...Array(SHARDS).keys()].filter((s) => prev.owners[s] !== cur.owners[s]);
      const leftC = prev.owners.includes('resc') && !cur.owners.includes('resc') && cur.fire > leaveAt;
      const dead = leftC ? changed.filter((s) => prev.owners[s] === 'resc') : [];
      // The failover: every shard of the left node moves in this one fire, not one per fire.
      if (leftC) expect(dead.length).toBeGreaterThanOrEqual(2);
      failedOver += dead.length;
      const moved = changed.filter((s) => !dead.includes(s));
      expect({ fire: cur.fire, moved }).toEqual({ fire: cur.fire, moved: moved.slice(0, 1) });
      for (const s of moved) {
        migrations++;
        // Only after the old owner's runs of that shard ended: none ends after the new owner's run starts.
        const newStart = attempts.find((a) => a.instance === cur.runs[s].id)?.started as number;
        const oldEnds = attempts
          .filter((a) => shardRuns(s, prev.owners[s], cur.fire).includes(a.instance))
          .map((a) => a.finished as number);
        expect(Math.max(...oldEnds)).toBeLessThanOrEqual(newStart);
      }
    }
    expect(failedOver).toBe(onC);
    expect(migrations).toBeGreaterThanOrEqual(4);
    expect(onC).toBeGreaterThanOrEqual(2);
    expect(before.every((n) => n === 'resa' || n === 'resb')).toBe(true);
    // The job view: settled, then pending shards while c's shards move, then settled with the moves counted.
    expect(settledTwo).toEqual({ total: SHARDS, pending: 0, moved: 0 });
    expect(Math.max(...views.map((v) => v?.pending ?? 0))).toBeGreaterThanOrEqual(2);
    expect(joined).toEqual({ total: SHARDS, pending: 0, moved: expect.any(Number) });
    expect(back).toEqual({ total: SHARDS, pending: 0, moved: expect.any(Number) });
    expect((joined?.moved ?? 0) + (back?.moved ?? 0)).toBe(migrations);
    expect(all.filter((r) => r.fire > leaveAt + 5000).some((r) => r.node === 'resc')).toBe(false);
    const counted = await api.app.get(MetricsService).shardMoves.get();
    const byKind = Object.fromEntries(counted.values.map((v) => [v.labels.kind, v.value]));
    expect(byKind).toEqual({ migration: migrations, failover: failedOver });
  }, 240_000);
});

describe('shard placement standalone (SQLite, one node)', () => {
  let node: TestNode;
  beforeAll(async () => {
    node = await startNode(standaloneEnv());
  }, 60_000);
  afterAll(async () => node?.close());

  it('should place every shard on the one node, show a settled placement and delete it with the job', async () => {
    const client = await signedClient(node);
    const job = await createJob(client, {
      code: 'sharded-alone',
      routingStrategy: 'SHARDING_BROADCAST',
      shardTotal: 3,
    });
    await triggerNow(client, 'sharded-alone', 2, 5);
    const statuses = async () =>
      (
        (await node.ds.query('SELECT status FROM job_instance WHERE job_id = ?', [job.id])) as Array<{ status: string }>
      ).map((r) => r.status);
    await waitFor(
      'both fires to succeed',
      async () => (await statuses()).filter((s) => s === 'SUCCESS').length === 6,
      30_000,
      100,
    );
    const view = (await client.request<JobView>('GET', `/api/jobs/${job.id}`)).body;
    expect(view.resharding).toEqual({ total: 3, pending: 0, moved: 0 });
    const [{ n }] = (await node.ds.query(
      'SELECT COUNT(DISTINCT node_id) AS n FROM job_shard_assignment WHERE job_id = ?',
      [job.id],
    )) as Array<{ n: number }>;
    expect(Number(n)).toBe(1);
    // The placement goes with the job.
    expect((await client.request('DELETE', `/api/jobs/${job.id}`)).status).toBe(204);
    const left = await node.ds.query('SELECT shard_index FROM job_shard_assignment WHERE job_id = ?', [job.id]);
    expect(left).toEqual([]);
  });
});
