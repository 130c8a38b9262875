import { LiveNode } from '../../coordination/index.js';
import { placeShard, shardOrder, ShardingBroadcastStrategy } from './sharding-broadcast.strategy.js';

const live = (nodeId: string): LiveNode => ({
  nodeId,
  lastBeat: 0,
  info: { handlers: ['h'], capacity: 4, active: 0, labels: {}, host: nodeId, startedAt: 0 },
});
const nodes = (n: number) => Array.from({ length: n }, (_, i) => live(`node-${i + 1}`));
const NODES = nodes(4);
const IDS = NODES.map((n) => n.nodeId);
const shard = (jobId: string | null, shardIndex: number, id = `i-${jobId}-${shardIndex}`) => ({
  id,
  handler: 'h',
  routingKey: null,
  jobId,
  shardIndex,
});
const fire = (jobId: string, total: number) => Array.from({ length: total }, (_, i) => shard(jobId, i));
const countBy = (picked: LiveNode[]) =>
  picked.reduce<Record<string, number>>((m, p) => ({ ...m, [p.nodeId]: (m[p.nodeId] ?? 0) + 1 }), {});

describe(ShardingBroadcastStrategy.name, () => {
  const sut = new ShardingBroadcastStrategy();

  it('should order the nodes per job, the same whatever order the candidates come in', () => {
    const order = shardOrder('job-7', IDS);
    expect([...order].sort()).toEqual(IDS);
    expect(shardOrder('job-7', [...IDS].reverse())).toEqual(order);
    // another job gets another order (for these ids; checked so the first shards of many jobs spread)
    const firsts = new Set(Array.from({ length: 40 }, (_, j) => shardOrder(`job-${j}`, IDS)[0]));
    expect(firsts.size).toBe(4);
  });

  it('should put every shard of a fire on a distinct node when shards <= nodes', async () => {
    for (let j = 0; j < 50; j++) {
      for (const total of [2, 3, 4]) {
        const picked = await sut.selectMany(fire(`job-${j}`, total), NODES);
        expect(new Set(picked.map((n) => n.nodeId)).size).toBe(total);
      }
    }
  });

  it('should give every node floor or ceil of shards / nodes when shards > nodes', async () => {
    const counts = Object.values(countBy(await sut.selectMany(fire('job-big', 10), NODES))).sort();
    expect(counts).toEqual([2, 2, 3, 3]);
    expect(Object.values(countBy(await sut.selectMany(fire('job-big', 8), NODES)))).toEqual([2, 2, 2, 2]);
  });

  it('should place each shard instance as placeShard does, in input order, and keep it from fire to fire', async () => {
    const instances = fire('job-7', 8);
    const picked = await sut.selectMany(instances, NODES);
    expect(picked.map((n) => n.nodeId)).toEqual(instances.map((_, i) => placeShard('job-7', i, IDS)));
    const a = await sut.select(shard('job-7', 2, 'fire-1-shard-2'), NODES);
    const b = await sut.select(shard('job-7', 2, 'fire-2-shard-2'), NODES);
    expect(b.nodeId).toBe(a.nodeId);
    // a batch holding shards of other jobs places this job's shards the same way
    const mixed = await sut.selectMany([shard('other', 0), ...instances, shard('other', 1)], NODES);
    expect(mixed.slice(1, 9).map((n) => n.nodeId)).toEqual(picked.map((n) => n.nodeId));
  });

  it('should still spread evenly after a node leaves, the others keeping their relative order', async () => {
    const order = shardOrder('job-7', IDS);
    const rest = IDS.filter((id) => id !== order[1]);
    expect(shardOrder('job-7', rest)).toEqual(order.filter((id) => id !== order[1]));
    const picked = await sut.selectMany(
      fire('job-7', 3),
      NODES.filter((n) => n.nodeId !== order[1]),
    );
    expect(new Set(picked.map((n) => n.nodeId)).size).toBe(3);
  });

  it('should use the instance id as job and 0 as shard when they are missing (API task)', async () => {
    expect((await sut.select({ id: 'task-1', handler: 'h', routingKey: null }, NODES)).nodeId).toBe(
      placeShard('task-1', 0, IDS),
    );
    expect((await sut.select(shard(null, 1, 'task-2'), NODES)).nodeId).toBe(placeShard('task-2', 1, IDS));
  });
});
