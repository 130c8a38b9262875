import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { RedisCoordinationAdapter, RedisKeys, type CoordinationPort } from '../../src/modules/coordination/index.js';
import { describeCoordinationContract, type CoordinationFixture } from './coordination.contract.js';

/** The real Redis of the integration tier (never mocked. */
const REDIS_URL = 'redis://127.0.0.1:6379';

/** Deletes every key of `namespace`. */
async function deleteNamespace(redis: Redis, namespace: string): Promise<void> {
  let cursor = '0';
  do {
    const [next, keys] = await redis.scan(cursor, 'MATCH', new RedisKeys(namespace).pattern(), 'COUNT', 500);
    if (keys.length > 0) await redis.del(...keys);
    cursor = next;
  } while (cursor !== '0');
}

/** One shared client and a unique namespace prefix per test; adapters of the same name share a namespace. */
function redisFixture(): CoordinationFixture & {
  redis: Redis;
  namespace(name?: string): string;
  extra(name?: string): RedisCoordinationAdapter;
} {
  const base = `t-${randomUUID().slice(0, 8)}`;
  const redis = new Redis(REDIS_URL, { maxRetriesPerRequest: 1 });
  const clients: Redis[] = [redis];
  const adapters: RedisCoordinationAdapter[] = [];
  const namespaces = new Set<string>();
  const make = (client: Redis, name: string) => {
    const namespace = `${base}-${name}`;
    namespaces.add(namespace);
    const adapter = new RedisCoordinationAdapter(client, namespace);
    adapters.push(adapter);
    return adapter;
  };
  return {
    redis,
    namespace: (name = 'main') => `${base}-${name}`,
    async open(name = 'main'): Promise<CoordinationPort> {
      return make(redis, name);
    },
    /** An adapter on a client of its own (another process, as far as Redis can tell). */
    extra(name = 'main'): RedisCoordinationAdapter {
      const client = new Redis(REDIS_URL, { maxRetriesPerRequest: 1 });
      clients.push(client);
      return make(client, name);
    },
    async elapse(ms: number): Promise<void> {
      await new Promise((resolve) => setTimeout(resolve, ms));
    },
    // Real sleeps: a wait meant to stay inside the TTL has 750 ms to spare (it had 80 ms, which a loaded machine's
    // scheduling delays could eat, expiring the lock before the check).
    timing: { ttl: 1000, within: 250, beyond: 1100 },
    async dispose(): Promise<void> {
      await Promise.all(adapters.map((adapter) => adapter.close()));
      for (const namespace of namespaces) await deleteNamespace(redis, namespace);
      await Promise.all(clients.map((client) => client.quit()));
    },
  };
}

describeCoordinationContract(RedisCoordinationAdapter.name, redisFixture);

describe(`${RedisCoordinationAdapter.name} (Redis specifics)`, () => {
  let fixture: ReturnType<typeof redisFixture>;

  beforeEach(() => {
    fixture = redisFixture();
  });

  afterEach(async () => {
    await fixture.dispose();
  });

  it('should put every key under the namespace hash tag', async () => {
    const sut = await fixture.open();
    await sut.tryAcquireLock('leader', 'n1', 5000);
    await sut.pushReady('n1', [
      { id: 'a', appId: 'app:1', rank: 1 },
      { id: 'b', appId: 'app:1', rank: 2 },
    ]);
    await sut.claim('n1', 0);
    await sut.scheduleDelayed('d', 10);
    await sut.heartbeat('n1', { handlers: [], capacity: 1, active: 0, labels: {}, host: 'h', startedAt: 0 }, 1);
    await sut.increment('c');
    await sut.acceptNonce('app:x', 'n', 5000);
    await sut.takeTokens('app:x', 1, 5, 1);
    const keys = await fixture.redis.keys(`*${fixture.namespace()}*`);
    // lock, app set, rotation, bell, processing, delayed, nodes, node-info, counter, nonce, token bucket
    expect(keys.length).toBe(11);
    for (const key of keys) expect(key.startsWith(`{tw:${fixture.namespace()}}:`)).toBe(true);
  });

  it('should set the lock ttl in Redis', async () => {
    const sut = await fixture.open();
    const t0 = Date.now();
    await sut.tryAcquireLock('leader', 'n1', 5000);
    const ttl = await fixture.redis.pttl(`{tw:${fixture.namespace()}}:lock:leader`);
    // 5000 ms less what passed since the acquire was sent (a fixed 4000 failed when a loaded machine took a second)
    expect(ttl).toBeGreaterThanOrEqual(5000 - (Date.now() - t0) - 5);
    expect(ttl).toBeLessThanOrEqual(5000);
  });

  it('should let a token bucket expire once it would be full again (an idle app costs no key)', async () => {
    const sut = await fixture.open();
    const take = await sut.takeTokens('app-ttl', 2, 4, 3);
    const key = `{tw:${fixture.namespace()}}:bucket:app-ttl`;
    const ttl = await fixture.redis.pttl(key);
    expect(take.fullInMs).toBe(1500);
    expect(ttl).toBeGreaterThan(0);
    expect(ttl).toBeLessThanOrEqual(take.fullInMs + 1000);
  });

  it('should time token buckets by Redis TIME, not by the caller', async () => {
    const sut = await fixture.open();
    const key = `{tw:${fixture.namespace()}}:bucket:app-clock`;
    await sut.takeTokens('app-clock', 1, 5, 5);
    const [seconds] = await fixture.redis.time();
    expect(Number(await fixture.redis.hget(key, 'at'))).toBeGreaterThanOrEqual(Number(seconds) * 1000 - 1000);
    // a bucket counted "in the future" (as a node with a fast clock would write it) refills nothing until Redis's
    // clock gets there
    await fixture.redis.hset(key, 'tokens', '0', 'at', String(Number(seconds) * 1000 + 3_600_000));
    expect(await sut.takeTokens('app-clock', 1, 5, 1)).toMatchObject({ allowed: false, remaining: 0 });
  });

  it('should never give one id to claimers on separate connections', async () => {
    const [a, b] = [fixture.extra(), fixture.extra()];
    const claims = Array.from({ length: 6 }, (_, i) => (i % 2 ? a : b).claim('n1', 5000));
    await new Promise((resolve) => setTimeout(resolve, 50));
    await a.pushReady(
      'n1',
      ['1', '2', '3', '4', '5', '6'].map((id, i) => ({ id, appId: `app-${i % 2}`, rank: i })),
    );
    expect((await Promise.all(claims)).sort()).toEqual(['1', '2', '3', '4', '5', '6']);
  });

  it('should never give one due id to takers on separate connections', async () => {
    const takers = [fixture.extra(), fixture.extra(), fixture.extra()];
    const ids = Array.from({ length: 300 }, (_, i) => `id-${String(i).padStart(3, '0')}`);
    await fixture.redis.zadd(`{tw:${fixture.namespace()}}:delayed`, ...ids.flatMap((id, i) => [i, id]));
    const batches = await Promise.all(Array.from({ length: 30 }, (_, i) => takers[i % 3].takeDue(1000, 13)));
    const taken = batches.flat();
    expect(new Set(taken).size).toBe(taken.length);
    expect(taken.sort()).toEqual(ids);
  });

  it('should still claim, count, list and drain the ids a previous version left in its single ready list', async () => {
    const sut = (await fixture.open()) as RedisCoordinationAdapter;
    await fixture.redis.rpush(sut.keys.legacyReady('n1'), 'old-1', 'old-2', 'old-3');
    await sut.pushReady('n1', [{ id: 'a1', appId: 'A', rank: 0 }]);
    expect(await sut.queueDepth('n1')).toEqual({ ready: 4, processing: 0 });
    expect([...(await sut.queuedIds('n1'))].sort()).toEqual(['a1', 'old-1', 'old-2', 'old-3']);
    expect(await sut.claimMany('n1', 2, 0)).toEqual([
      { id: 'old-1', appId: null },
      { id: 'old-2', appId: null },
    ]); // oldest work first
    expect(await sut.drainNode('n1')).toEqual(['old-1', 'old-2', 'old-3', 'a1']);
    await fixture.redis.rpush(sut.keys.legacyReady('n1'), 'old-4');
    expect(await sut.claim('n1', 1000)).toBe('old-4'); // no push rang the bell: the first try finds it
    expect(await fixture.redis.exists(sut.keys.legacyReady('n1'))).toBe(0);
  });

  it("should still claim, count, list and drain the ids a version before priorities left in an app's list", async () => {
    const sut = (await fixture.open()) as RedisCoordinationAdapter;
    // That version's layout: the rotation names app A, whose ids wait in a FIFO list.
    await fixture.redis.rpush(sut.keys.readyApps('n1'), 'A');
    await fixture.redis.rpush(`${sut.keys.readyAppPrefix('n1')}A`, 'old-1', 'old-2', 'old-3');
    await sut.pushReady('n1', [{ id: 'new-1', appId: 'A', rank: 0 }]);
    expect(await sut.queueDepth('n1')).toEqual({ ready: 4, processing: 0 });
    expect([...(await sut.queuedIds('n1'))].sort()).toEqual(['new-1', 'old-1', 'old-2', 'old-3']);
    expect(await sut.claimMany('n1', 2, 0)).toEqual([
      { id: 'new-1', appId: 'A' },
      { id: 'old-1', appId: 'A' },
    ]); // the app's set, then its old list
    expect(await sut.drainNode('n1')).toEqual(['new-1', 'old-1', 'old-2', 'old-3']);
    expect(await fixture.redis.exists(`${sut.keys.readyAppPrefix('n1')}A`, sut.keys.readyApps('n1'))).toBe(0);
  });

  it('should run its scripts again after SCRIPT FLUSH', async () => {
    const sut = await fixture.open();
    await sut.tryAcquireLock('leader', 'n1', 5000);
    await fixture.redis.script('FLUSH');
    expect(await sut.releaseLock('leader', 'n1')).toBe(true);
  });

  it('should leave the shared client open on close', async () => {
    const sut = await fixture.open();
    await sut.claim('n1', 10);
    await sut.close();
    expect(await fixture.redis.ping()).toBe('PONG');
  });

  it('should refuse a namespace that would break the hash tag', () => {
    expect(() => new RedisCoordinationAdapter(fixture.redis, 'a}b')).toThrow();
    expect(() => new RedisCoordinationAdapter(fixture.redis, '')).toThrow();
  });
});
