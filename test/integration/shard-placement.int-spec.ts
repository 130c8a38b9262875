import { randomUUID } from 'node:crypto';
import { ShardPlacement } from '../../src/modules/dispatch/shard-placement.js';
import { RoutingStrategies, shardOrder } from '../../src/modules/dispatch/routing/index.js';
import {
  FireLedger,
  JobInstance,
  JobInstanceStatus,
  newJobInstance,
  ShardAssignmentRepository,
  TriggerSource,
  UnitOfWork,
} from '../../src/modules/metadata/index.js';
import { MetricsService } from '../../src/modules/observability/index.js';
import { FakeClock } from '../fakes/fake-clock.js';
import { type DbKind, type MetadataDb, openMetadataDb } from '../utils/metadata-db.js';

/**
 * ShardPlacement on the real databases (docs/dispatch.md "Shard placement"): placing, growing and shrinking,
 * marking on a join, one migration per fire and only once the old owner's run ended, failover at once.
 */
describe.each<DbKind>(['mysql', 'sqlite'])('shard placement (%s)', (kind) => {
  const ns = `int-shards-${randomUUID().slice(0, 8)}`;
  let db: MetadataDb;
  let placement: ShardPlacement;
  let assignments: ShardAssignmentRepository;
  let metrics: MetricsService;
  const clock = new FakeClock(1_000_000);

  beforeAll(async () => {
    db = await openMetadataDb(kind, ns);
    assignments = new ShardAssignmentRepository(db.ds);
    metrics = new MetricsService();
    const strategies = new RoutingStrategies({ counters: null as never, queues: null as never });
    placement = new ShardPlacement(
      strategies,
      UnitOfWork.for(db.ds),
      assignments,
      new FireLedger(db.ds),
      metrics,
      clock,
    );
  });
  afterAll(async () => {
    await db.ds.query('DELETE FROM job_shard_assignment WHERE job_id LIKE ?', [`${ns}%`]);
    await db.close();
  });

  const deal = (jobId: string, total: number, nodes: string[]) =>
    [...Array(total).keys()].map((i) => shardOrder(jobId, nodes)[i % nodes.length]);
  const owners = async (jobId: string, total: number, fire: number, nodes: string[], move: boolean) => {
    const out = await placement.owners(jobId, total, fire, nodes, move);
    return { owners: [...Array(total).keys()].map((i) => out.owners.get(i)), pending: out.pending };
  };
  const moves = async (kindLabel: string) =>
    (await metrics.shardMoves.get()).values.find((v) => v.labels.kind === kindLabel)?.value ?? 0;
  /** A RUNNING instance of shard `shard` of job `jobId` on `node`; @returns its id. */
  const running = async (jobId: string, shard: number, node: string): Promise<string> => {
    const row = newJobInstance(
      { namespace: ns, appId: 'int', handler: 'h', fireTime: 5, triggerSource: TriggerSource.SCHEDULE, dueAt: 5 },
      1,
    );
    Object.assign(row, { jobId, shardIndex: shard, status: JobInstanceStatus.RUNNING, nodeId: node, startedAt: 1 });
    await db.ds.getRepository(JobInstance).save(row);
    return row.id;
  };

  it('should place new shards on the deal, keep them when shardTotal grows, and drop them when it shrinks', async () => {
    const job = `${ns}-grow`;
    expect(await owners(job, 4, 1000, ['a', 'b'], false)).toEqual({ owners: deal(job, 4, ['a', 'b']), pending: 0 });
    expect(await owners(job, 6, 2000, ['a', 'b'], true)).toEqual({ owners: deal(job, 6, ['a', 'b']), pending: 0 });
    expect((await owners(job, 3, 3000, ['a', 'b'], true)).owners).toEqual(deal(job, 3, ['a', 'b']));
    expect((await assignments.progressOf([job])).get(job)).toEqual({ total: 3, pending: 0, moved: 0 });
  });

  it('should mark shards on a join, move one per fire at fire time only, and not one whose old run is unfinished', async () => {
    const job = `${ns}-join`;
    const two = deal(job, 8, ['a', 'b']);
    const three = deal(job, 8, ['a', 'b', 'c']);
    const marked = [...two.keys()].filter((i) => two[i] !== three[i]);
    expect(marked.length).toBeGreaterThanOrEqual(2);
    await owners(job, 8, 1000, ['a', 'b'], true);
    // Routed ahead: nothing moves, the changed shards are marked.
    expect(await owners(job, 8, 2000, ['a', 'b', 'c'], false)).toEqual({ owners: two, pending: marked.length });
    // The first marked shard's run on its old owner has not ended: the next one moves instead, and only one.
    const busy = await running(job, marked[0], two[marked[0]]);
    const first = await owners(job, 8, 2000, ['a', 'b', 'c'], true);
    expect(first.owners).toEqual(two.map((n, i) => (i === marked[1] ? three[i] : n)));
    expect(first.pending).toBe(marked.length - 1);
    // The same fire routed again moves nothing more.
    expect((await owners(job, 8, 2000, ['a', 'b', 'c'], true)).owners).toEqual(first.owners);
    await db.ds.query('UPDATE job_instance SET status = ? WHERE id = ?', [JobInstanceStatus.SUCCESS, busy]);
    const second = await owners(job, 8, 3000, ['a', 'b', 'c'], true);
    expect(second.owners[marked[0]]).toBe(three[marked[0]]);
    expect((await assignments.progressOf([job])).get(job)).toEqual({ total: 8, pending: marked.length - 2, moved: 2 });
    let fire = 3000;
    while ((await assignments.progressOf([job])).get(job)?.pending)
      await owners(job, 8, (fire += 1000), ['a', 'b', 'c'], true);
    expect(fire).toBe(3000 + 1000 * (marked.length - 2));
    expect((await owners(job, 8, fire + 1000, ['a', 'b', 'c'], true)).owners).toEqual(three);
    expect(await moves('migration')).toBeGreaterThanOrEqual(marked.length);
  });

  it("should fail a left node's shards over at once, even ahead, and read a bad stored state as settled", async () => {
    const job = `${ns}-leave`;
    const three = deal(job, 9, ['a', 'b', 'c']);
    await owners(job, 9, 1000, ['a', 'b', 'c'], true);
    await db.ds.query("UPDATE job_shard_assignment SET state = 'BOGUS' WHERE job_id = ? AND shard_index = 0", [job]);
    const before = await moves('failover');
    const out = await owners(job, 9, 2000, ['a', 'b'], false);
    const onC = [...three.keys()].filter((i) => three[i] === 'c');
    const two = deal(job, 9, ['a', 'b']);
    expect(onC.map((i) => out.owners[i])).toEqual(onC.map((i) => two[i]));
    expect(out.owners.filter((n) => n === 'c')).toEqual([]);
    expect((await moves('failover')) - before).toBe(onC.length);
  });
});
