import { createHash, randomUUID } from 'node:crypto';
import { Command, Redis } from 'ioredis';
import { RedisCoordinationAdapter, RedisKeys } from '../../src/modules/coordination/index.js';
import { SCRIPT_NAMES, ScriptLoader } from '../../src/modules/coordination/redis/script-loader.js';

/**
 * Redis Cluster runs a script or a multi-key command only when all its keys live in one hash slot (docs/redis-keys.md
 * "Layout"). Every command the Redis adapter sends while it runs every port method is recorded with its keys (and,
 * for a script, the keys its Lua builds from an ARGV prefix) and each must hash to the namespace's slot.
 */
type Sent = { name: string; keys: string[]; args: string[] };

/** The Cluster hash slot of `key` (CRC16 of its hash tag, as ioredis's Cluster client routes it). */
const calculateSlot = (key: string): number => new Command('get', [key]).getSlot() as number;

/** The ARGV indexes (1-based) a script uses as key prefixes (`ARGV[n] ..` in its Lua). */
function prefixArgs(lua: string): number[] {
  return [...new Set([...lua.matchAll(/ARGV\[(\d+)\]\s*\.\./g)].map((m) => Number(m[1])))];
}

/** What in `sent` breaks the one-slot rule of `keys`' namespace: a key (or built key) off the slot or the tag. */
function offSlot(keys: RedisKeys, sent: Sent[], scripts: Map<string, { name: string; lua: string }>): string[] {
  const slot = calculateSlot(keys.prefix);
  const bad: string[] = [];
  const check = (what: string, key: string) => {
    if (!key.startsWith(`${keys.prefix}:`) || calculateSlot(key) !== slot) bad.push(`${what}: ${key}`);
  };
  for (const s of sent) {
    for (const key of s.keys) check(s.name, key);
    const script = s.name.startsWith('eval') ? scripts.get(s.args[0]) : undefined;
    if (!script) continue;
    const argv = s.args.slice(2 + Number(s.args[1]));
    for (const n of prefixArgs(script.lua)) check(`${script.name} ARGV[${n}]`, `${argv[n - 1]}some-app`);
  }
  return bad;
}

describe('Redis keys and hash slots', () => {
  const namespace = `slots-${randomUUID().slice(0, 8)}`;
  const keys = new RedisKeys(namespace);
  const loader = new ScriptLoader();
  const bySha = new Map(loader.list().map((s) => [createHash('sha1').update(s.lua).digest('hex'), s]));
  const sent: Sent[] = [];
  let redis: Redis;
  let adapter: RedisCoordinationAdapter;

  beforeAll(() => {
    redis = new Redis('redis://127.0.0.1:6379', { maxRetriesPerRequest: 1 });
    const send = redis.sendCommand.bind(redis);
    redis.sendCommand = ((command: Parameters<Redis['sendCommand']>[0], ...rest: unknown[]) => {
      const args = command.args.map((a) => String(a));
      sent.push({ name: command.name, keys: command.getKeys().map(String), args });
      return (send as (...a: unknown[]) => unknown)(command, ...rest);
    }) as Redis['sendCommand'];
    adapter = new RedisCoordinationAdapter(redis, namespace, loader);
  });

  afterAll(async () => {
    await adapter.close();
    const [, found] = await redis.scan('0', 'MATCH', keys.pattern(), 'COUNT', 10_000);
    if (found.length > 0) await redis.del(...found);
    await redis.quit();
  });

  it('should keep every key of every command and script on the namespace slot', async () => {
    const node = 'node:1';
    const now = Date.now();
    await adapter.tryAcquireLock('leader', 'me', 5000);
    await adapter.renewLock('leader', 'me', 5000);
    await adapter.lockOwner('leader');
    await adapter.releaseLock('leader', 'me');
    await adapter.pushReady(node, [
      { id: 'i1', appId: 'app:a', rank: 1 },
      { id: 'i2', appId: 'app/b', rank: 2 },
    ]);
    await adapter.queueDepth(node);
    await adapter.queuedIds(node);
    const claimed = await adapter.claimMany(node, 1, 0, { cap: 1, held: new Map([['app:a', 0]]) });
    await adapter.ackMany(
      node,
      claimed.map((c) => c.id),
    );
    await adapter.ack(node, 'i0');
    await adapter.drainNode(node);
    await adapter.scheduleDelayed('d1', now);
    await adapter.delayedDueAt('d1');
    await adapter.takeDue(now, 10);
    await adapter.heartbeat(node, { handlers: [], capacity: 1 } as never, now);
    await adapter.liveNodes(now - 1000);
    await adapter.staleNodes(now);
    await adapter.removeNode(node);
    await adapter.seedSlots('job:1', ['h1'], 5000, now);
    await adapter.acquireSlots('job:1', ['h2'], 2, 5000, now);
    await adapter.releaseSlot('job:1', 'h2');
    await adapter.acceptNonce('app:a', 'n1', 5000);
    await adapter.takeTokens('app:a', 10, 10, 1);
    await adapter.admitRequest('app:a', 'n2', 5000, { key: 'app:a', ratePerSecond: 10, burst: 10, n: 1 });
    await adapter.increment('rr:job:1');

    const ran = new Set(sent.flatMap((s) => (s.name.startsWith('eval') ? [bySha.get(s.args[0])?.name] : [])));
    expect(SCRIPT_NAMES.filter((name) => !ran.has(name))).toEqual([]); // a new script must be exercised here too
    expect(sent.filter((s) => s.keys.length > 0).length).toBeGreaterThan(SCRIPT_NAMES.length);
    expect(offSlot(keys, sent, bySha)).toEqual([]);
  });

  it('should report a key without the hash tag, and a Lua-built key whose prefix lost it', () => {
    const lua = loader.list().find((s) => s.name === 'pushReady')!;
    const sha = createHash('sha1').update(lua.lua).digest('hex');
    const untagged = `tw:${namespace}:lock:leader`;
    const bad = offSlot(
      keys,
      [
        { name: 'get', keys: [untagged], args: [untagged] },
        {
          name: 'evalsha',
          keys: [keys.readyApps('n')],
          args: [sha, '2', keys.readyApps('n'), 'b', `tw:${namespace}:r:`],
        },
      ],
      new Map([[sha, lua]]),
    );
    expect(bad).toEqual([`get: ${untagged}`, `pushReady ARGV[1]: tw:${namespace}:r:some-app`]);
  });
});
