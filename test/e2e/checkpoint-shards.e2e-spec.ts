import { Injectable, Module } from '@nestjs/common';
import { TickwheelClient } from '../../src/client/tickwheel-client.js';
import { type JobContext, JobHandler, type JobHandlerImpl } from '../../src/modules/execution/index.js';
import { createJob, neverFiringJob } from '../utils/jobs.js';
import { clusterEnv, signedClient, startNode, TestNode, uniqueNamespace, waitFor } from '../utils/test-node.js';

/** Attempt 1 checkpoints its shard and part, then fails; attempt 2 returns what it found in `lastCheckpoint`. */
@Injectable()
@JobHandler('ckpt.shard')
class ShardCheckpointHandler implements JobHandlerImpl {
  async execute(ctx: JobContext): Promise<unknown> {
    if (ctx.attempt === 1) {
      await ctx.checkpoint({ shard: ctx.shardIndex, part: (ctx.params as { part: string }).part });
      throw new Error('attempt 1 fails after its checkpoint');
    }
    return { shardIndex: ctx.shardIndex, attempt: ctx.attempt, last: ctx.lastCheckpoint };
  }
}

@Module({ providers: [ShardCheckpointHandler] })
class ShardCheckpointModule {}

type View = Record<string, unknown>;

/**
 * Checkpoints of a sharded fire (docs/long-tasks.md "Checkpoints"): each shard is its own instance, so each keeps
 * its own checkpoint, and its retry (another attempt, another token) finds that one and no other shard's. The job
 * instance views show when and by which attempt it was stored.
 */
describe('checkpoints of a sharded job', () => {
  const ns = uniqueNamespace('e2e-ckpt-shards');
  let api: TestNode;
  let executor: TestNode;
  let client: TickwheelClient;

  beforeAll(async () => {
    api = await startNode(clusterEnv(ns, { ROLES: 'api,scheduler', NODE_OFFLINE_AFTER_MS: '15000' }));
    executor = await startNode(clusterEnv(ns, { ROLES: 'executor', NODE_OFFLINE_AFTER_MS: '15000' }), {
      imports: [ShardCheckpointModule],
    });
    client = await signedClient(api);
    await waitFor(
      'executor to advertise ckpt.shard',
      async () =>
        (
          await client.request<{ items: Array<{ handlers: string[] }> }>('GET', '/api/nodes?handler=ckpt.shard')
        ).body.items.some((n) => n.handlers.includes('ckpt.shard')),
      30_000,
    );
  }, 60_000);
  afterAll(async () => {
    await executor?.close();
    await api?.close();
  });

  it("should give each shard's retry its own shard's checkpoint", async () => {
    const body = neverFiringJob('sharded', 'ckpt.shard', {
      routingStrategy: 'SHARDING_BROADCAST',
      shardTotal: 3,
      shardParams: [{ part: 'a' }, { part: 'b' }, { part: 'c' }],
      retryMax: 1,
      retryBackoffMs: 100,
    });
    await createJob(client, body);
    const fired = await client.request<{ shards: View[] }>('POST', '/api/jobs/sharded/trigger', {});
    expect(fired.status).toBe(202);
    const ids = fired.body.shards.map((s) => String(s.instanceId));
    expect(ids).toHaveLength(3);
    const view = async (id: string) => (await client.request<View>('GET', `/api/jobs/sharded/instances/${id}`)).body;
    await waitFor(
      'every shard SUCCESS',
      async () => (await Promise.all(ids.map(view))).every((v) => v.status === 'SUCCESS'),
      30_000,
    );
    for (const [i, id] of ids.entries()) {
      const v = await view(id);
      expect(v).toMatchObject({ shardIndex: i, attempt: 2, checkpointAttempt: 1 });
      expect(v.checkpointAt).toEqual(expect.stringMatching(/Z$/));
      expect(v.result).toEqual({
        shardIndex: i,
        attempt: 2,
        last: { state: { shard: i, part: 'abc'[i] }, attempt: 1, fencingToken: 1, at: expect.any(Number) },
      });
      expect(Date.parse(String(v.checkpointAt))).toBe((v.result as { last: { at: number } }).last.at);
    }
  }, 90_000);
});
