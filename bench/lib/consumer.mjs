// A stand-in executor node for the trigger benchmark: it heartbeats into the product's node registry
// advertising the bench handler, so dispatch routes the fires to it, and it takes the ids off its ready
// queue the moment they arrive (the product's own claim, RedisCoordinationAdapter.claimMany, up to 1000
// at once, as if it had that many idle workers; the ids stay in its processing list, never acked),
// stamping the arrival. It never claims a row in MariaDB: what it measures is the fire as an executor
// sees it — the instant the id can be picked up — without the executor's own claim write. Because its
// rows stay DISPATCHED and in no list, the scheduler's reconciler would take them for lost pushes: the
// bench runs the scheduler with the reconcile pass off.
import { join, dirname } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Redis } from 'ioredis';

/**
 * Starts the stand-in node.
 * @param {{redisUrl: string, namespace: string, nodeId: string, handler: string, mainJs: string, connections?: number, beatMs?: number}} o
 *   connections: claimers taking ids at once, each on a client of its own (default 2).
 *   mainJs: the product's dist/src/main.js; the Redis key layout and the claim are taken from its
 *   coordination adapter (not copied).
 * @returns {Promise<{arrivals: Map<string, number>, duplicates: () => number, stop: () => Promise<void>}>}
 *   arrivals: instance id -> first arrival (epoch ms).
 */
export async function startConsumer(o) {
  const coordination = (file) =>
    import(pathToFileURL(join(dirname(o.mainJs), 'modules/coordination/redis', file)).href);
  const { RedisKeys } = await coordination('redis-keys.js');
  const { RedisCoordinationAdapter } = await coordination('redis-coordination.adapter.js');
  const keys = new RedisKeys(o.namespace);
  const control = new Redis(o.redisUrl, { maxRetriesPerRequest: 2 });
  const advert = JSON.stringify({
    handlers: [o.handler],
    capacity: 1_000_000,
    active: 0,
    labels: { role: 'bench-consumer' },
    host: 'bench',
    startedAt: Date.now(),
  });
  const beat = () =>
    control.multi().zadd(keys.nodes(), Date.now(), o.nodeId).hset(keys.nodeInfo(), o.nodeId, advert).exec();
  await beat();
  const beats = setInterval(() => void beat().catch(() => undefined), o.beatMs ?? 1000);
  const arrivals = new Map();
  let dups = 0;
  let stopped = false;
  const conns = Array.from({ length: o.connections ?? 2 }, () => new Redis(o.redisUrl, { maxRetriesPerRequest: null }));
  const claimers = conns.map((c) => new RedisCoordinationAdapter(c, o.namespace));
  const loops = claimers.map(async (claimer) => {
    while (!stopped) {
      const got = await claimer.claimMany(o.nodeId, 1000, 200).catch(() => []);
      const at = Date.now();
      for (const { id } of got) {
        if (arrivals.has(id)) dups++;
        else arrivals.set(id, at);
      }
    }
  });
  let stopping = null;
  return {
    arrivals,
    duplicates: () => dups,
    /** Stops taking ids and leaves the registry (call after the scheduler stopped). Idempotent. */
    stop() {
      stopping ??= (async () => {
        stopped = true;
        clearInterval(beats);
        await Promise.all(loops);
        await Promise.all(claimers.map((claimer) => claimer.close()));
        await control.multi().zrem(keys.nodes(), o.nodeId).hdel(keys.nodeInfo(), o.nodeId).exec();
        for (const c of [control, ...conns]) c.disconnect();
      })();
      return stopping;
    },
  };
}
