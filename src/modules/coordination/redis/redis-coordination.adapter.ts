import type { ChainableCommander, Redis } from 'ioredis';
import { ValidationError } from '../../../common/index.js';
import { checkBucketArgs, checkSlotArgs, toTtl } from '../port-args.js';
import type { CoordinationPort, LiveNode, NodeAdvert, TokenTake } from '../coordination.port.js';
import { RedisKeys } from './redis-keys.js';
import { ScriptLoader, type ScriptName } from './script-loader.js';

let defaultScripts: ScriptLoader | undefined;

/**
 * {@link CoordinationPort} on Redis 7 (single, Sentinel or Cluster; cluster deployment shape, DESIGN §1, §3).
 *
 * Keys come from {@link RedisKeys} (one hash tag per namespace); everything needing atomicity is a Lua
 * script in `lua/`. `claim` blocks (BLMOVE) on connections of its own, duplicated lazily from the shared
 * client, one per concurrent claim, so a waiting claim never stalls other commands or other claims.
 * The shared client belongs to the caller: {@link close} only closes the connections this adapter made.
 */
export class RedisCoordinationAdapter implements CoordinationPort {
  /** Key builder of this adapter's namespace. */
  readonly keys: RedisKeys;
  private readonly idleBlocking: Redis[] = [];
  private readonly blocking = new Set<Redis>();
  private closed = false;
  /** The subscriber connection (a Redis connection in subscribe mode serves nothing else), made on first subscribe. */
  private subscriber: Redis | null = null;
  /** Listeners by channel key. */
  private readonly listeners = new Map<string, Set<(message: string) => void>>();

  /**
   * @param redis shared ioredis client (not closed by this adapter); the scripts are registered on it.
   * @param namespace scope of every key (`{tw:<namespace>}`).
   */
  constructor(
    private readonly redis: Redis,
    namespace: string,
    private readonly scripts: ScriptLoader = (defaultScripts ??= new ScriptLoader()),
  ) {
    this.keys = new RedisKeys(namespace);
    scripts.register(redis);
  }

  /** {@inheritDoc CoordinationPort.tryAcquireLock} */
  async tryAcquireLock(name: string, owner: string, ttlMs: number): Promise<boolean> {
    return (await this.run('acquireLock', [this.keys.lock(name)], [owner, toTtl(ttlMs)])) === 1;
  }

  /** {@inheritDoc CoordinationPort.renewLock} */
  async renewLock(name: string, owner: string, ttlMs: number): Promise<boolean> {
    return (await this.run('renewLock', [this.keys.lock(name)], [owner, toTtl(ttlMs)])) === 1;
  }

  /** {@inheritDoc CoordinationPort.releaseLock} */
  async releaseLock(name: string, owner: string): Promise<boolean> {
    return (await this.run('releaseLock', [this.keys.lock(name)], [owner])) === 1;
  }

  /** {@inheritDoc CoordinationPort.lockOwner} */
  lockOwner(name: string): Promise<string | null> {
    return this.redis.get(this.keys.lock(name));
  }

  /** {@inheritDoc CoordinationPort.pushReady} */
  async pushReady(nodeId: string, ids: string[]): Promise<void> {
    if (ids.length > 0) await this.redis.rpush(this.keys.ready(nodeId), ...ids);
  }

  /**
   * {@inheritDoc CoordinationPort.claim}
   * `timeoutMs <= 0` does not wait (LMOVE). Pending claims resolve null when the adapter is closed.
   */
  async claim(nodeId: string, timeoutMs: number): Promise<string | null> {
    if (this.closed) return null;
    const ready = this.keys.ready(nodeId);
    const processing = this.keys.processing(nodeId);
    if (!(timeoutMs > 0)) return (await this.redis.lmove(ready, processing, 'LEFT', 'RIGHT')) as string | null;
    const connection = this.takeBlockingConnection();
    try {
      // BLMOVE takes seconds with decimals; below 1 ms Redis would read 0, i.e. "block forever".
      return await connection.blmove(ready, processing, 'LEFT', 'RIGHT', Math.max(1, Math.ceil(timeoutMs)) / 1000);
    } catch (error) {
      if (this.closed) return null;
      throw error;
    } finally {
      this.giveBackBlockingConnection(connection);
    }
  }

  /**
   * {@inheritDoc CoordinationPort.claimMany}
   * One script call (an LMOVE loop, `lua/claimMany-2.lua`); only when it finds nothing does it block
   * (BLMOVE for one id on a connection of its own), then takes the rest with the script again.
   */
  async claimMany(nodeId: string, max: number, timeoutMs: number): Promise<string[]> {
    if (this.closed || !(max >= 1)) return [];
    const keys = [this.keys.ready(nodeId), this.keys.processing(nodeId)];
    const n = Math.floor(max);
    const now = (await this.run('claimMany', keys, [n])) as string[];
    if (now.length > 0 || !(timeoutMs > 0)) return now;
    const first = await this.claim(nodeId, timeoutMs);
    if (first === null) return [];
    if (n === 1 || this.closed) return [first];
    return [first, ...((await this.run('claimMany', keys, [n - 1])) as string[])];
  }

  /** {@inheritDoc CoordinationPort.ack} */
  async ack(nodeId: string, id: string): Promise<void> {
    await this.redis.lrem(this.keys.processing(nodeId), 1, id);
  }

  /** {@inheritDoc CoordinationPort.ackMany} */
  async ackMany(nodeId: string, ids: string[]): Promise<void> {
    if (ids.length === 0) return;
    const key = this.keys.processing(nodeId);
    const pipeline = this.redis.pipeline();
    for (const id of ids) pipeline.lrem(key, 1, id);
    await execAll(pipeline);
  }

  /** {@inheritDoc CoordinationPort.drainNode} */
  async drainNode(nodeId: string): Promise<string[]> {
    const keys = [this.keys.processing(nodeId), this.keys.ready(nodeId)];
    return (await this.run('drainNode', keys, [])) as string[];
  }

  /** {@inheritDoc CoordinationPort.queueDepth} */
  async queueDepth(nodeId: string): Promise<{ ready: number; processing: number }> {
    const tx = this.redis.multi().llen(this.keys.ready(nodeId)).llen(this.keys.processing(nodeId));
    const [ready, processing] = (await execAll(tx)) as number[];
    return { ready, processing };
  }

  /** {@inheritDoc CoordinationPort.queueDepths} One pipeline of LLENs (not atomic across nodes; each figure is exact at its instant). */
  async queueDepths(nodeIds: string[]): Promise<Array<{ ready: number; processing: number }>> {
    if (nodeIds.length === 0) return [];
    const pipeline = this.redis.pipeline();
    for (const nodeId of nodeIds) pipeline.llen(this.keys.ready(nodeId)).llen(this.keys.processing(nodeId));
    const lengths = (await execAll(pipeline)) as number[];
    return nodeIds.map((_, i) => ({ ready: lengths[2 * i], processing: lengths[2 * i + 1] }));
  }

  /** {@inheritDoc CoordinationPort.queuedIds} */
  async queuedIds(nodeId: string): Promise<Set<string>> {
    const tx = this.redis.multi().lrange(this.keys.ready(nodeId), 0, -1).lrange(this.keys.processing(nodeId), 0, -1);
    const [ready, processing] = (await execAll(tx)) as string[][];
    return new Set([...ready, ...processing]);
  }

  /** {@inheritDoc CoordinationPort.scheduleDelayed} */
  async scheduleDelayed(id: string, dueAtMs: number): Promise<void> {
    await this.redis.zadd(this.keys.delayed(), dueAtMs, id);
  }

  /** {@inheritDoc CoordinationPort.takeDue} */
  async takeDue(nowMs: number, limit: number): Promise<string[]> {
    if (!(limit >= 1)) return [];
    return (await this.run('takeDue', [this.keys.delayed()], [nowMs, Math.floor(limit)])) as string[];
  }

  /** {@inheritDoc CoordinationPort.delayedDueAt} */
  async delayedDueAt(id: string): Promise<number | null> {
    const score = await this.redis.zscore(this.keys.delayed(), id);
    return score === null ? null : Number(score);
  }

  /** {@inheritDoc CoordinationPort.heartbeat} */
  async heartbeat(nodeId: string, info: NodeAdvert, nowMs: number): Promise<void> {
    await this.run('heartbeat', this.nodeKeys(), [nodeId, nowMs, JSON.stringify(info)]);
  }

  /** {@inheritDoc CoordinationPort.liveNodes} */
  liveNodes(sinceMs: number): Promise<LiveNode[]> {
    return this.listNodes(String(sinceMs), '+inf');
  }

  /** {@inheritDoc CoordinationPort.staleNodes} */
  staleNodes(sinceMs: number): Promise<LiveNode[]> {
    return this.listNodes('-inf', `(${sinceMs}`);
  }

  /** {@inheritDoc CoordinationPort.removeNode} */
  async removeNode(nodeId: string): Promise<void> {
    await this.run('removeNode', this.nodeKeys(), [nodeId]);
  }

  /** {@inheritDoc CoordinationPort.acquireSlots} */
  async acquireSlots(name: string, holders: string[], limit: number, ttlMs: number, nowMs: number): Promise<string[] | null> {
    checkSlotArgs(holders, limit);
    if (holders.length === 0) return [];
    return (await this.run('acquireSlots', [this.keys.semaphore(name)], [nowMs, nowMs + toTtl(ttlMs), limit, ...holders])) as string[] | null;
  }

  /** {@inheritDoc CoordinationPort.seedSlots} */
  async seedSlots(name: string, holders: string[], ttlMs: number, nowMs: number): Promise<void> {
    checkSlotArgs(holders, 1);
    await this.run('seedSlots', [this.keys.semaphore(name)], [nowMs, nowMs + toTtl(ttlMs), ...holders]);
  }

  /** {@inheritDoc CoordinationPort.releaseSlot} */
  async releaseSlot(name: string, holder: string): Promise<void> {
    await this.redis.zrem(this.keys.semaphore(name), holder);
  }

  /** {@inheritDoc CoordinationPort.increment} */
  async increment(name: string, by = 1): Promise<number> {
    if (!Number.isSafeInteger(by)) throw new ValidationError('by', `increment must be an integer, got ${by}`);
    return this.redis.incrby(this.keys.counter(name), by);
  }

  /** {@inheritDoc CoordinationPort.acceptNonce} */
  async acceptNonce(appId: string, nonce: string, ttlMs: number): Promise<boolean> {
    return (await this.redis.set(this.keys.nonce(appId, nonce), '1', 'PX', toTtl(ttlMs), 'NX')) === 'OK';
  }

  /** {@inheritDoc CoordinationPort.takeTokens} One script call (`lua/takeTokens-1.lua`), timed by Redis TIME. */
  async takeTokens(key: string, ratePerSecond: number, burst: number, n: number): Promise<TokenTake> {
    checkBucketArgs(ratePerSecond, burst, n);
    const [allowed, remaining, retryAfterMs, fullInMs] = (await this.run('takeTokens', [this.keys.bucket(key)], [ratePerSecond, burst, n])) as number[];
    return { allowed: allowed === 1, remaining, retryAfterMs, fullInMs };
  }

  /** {@inheritDoc CoordinationPort.publish} */
  async publish(name: string, message: string): Promise<void> {
    await this.redis.publish(this.keys.channel(name), message);
  }

  /** {@inheritDoc CoordinationPort.subscribe} One subscriber connection per adapter serves every channel. */
  async subscribe(name: string, listener: (message: string) => void): Promise<() => Promise<void>> {
    if (this.closed) throw new Error('coordination adapter is closed');
    const channel = this.keys.channel(name);
    if (!this.subscriber) {
      const connectionName = this.redis.options.connectionName;
      const sub = this.redis.duplicate({ connectionName: connectionName ? `${connectionName}:sub` : undefined });
      sub.on('error', () => undefined); // reported by the shared client's owner; ioredis resubscribes on reconnect
      sub.on('message', (ch: string, message: string) => {
        for (const l of this.listeners.get(ch) ?? []) l(message);
      });
      this.subscriber = sub;
    }
    let set = this.listeners.get(channel);
    if (!set) {
      this.listeners.set(channel, (set = new Set()));
      await this.subscriber.subscribe(channel);
    }
    set.add(listener);
    return async () => {
      const current = this.listeners.get(channel);
      if (!current?.delete(listener) || current.size > 0) return;
      this.listeners.delete(channel);
      if (this.subscriber && !this.closed) await this.subscriber.unsubscribe(channel).catch(() => undefined);
    };
  }

  /** Disconnects the blocking and subscriber connections this adapter created (pending claims resolve null). Idempotent. */
  async close(): Promise<void> {
    this.closed = true;
    this.subscriber?.disconnect();
    this.subscriber = null;
    this.listeners.clear();
    for (const connection of this.blocking) connection.disconnect();
    this.blocking.clear();
    this.idleBlocking.length = 0;
  }

  private run(name: ScriptName, keys: string[], args: (string | number)[]): Promise<unknown> {
    return this.scripts.run(this.redis, name, keys, args);
  }

  private nodeKeys(): string[] {
    return [this.keys.nodes(), this.keys.nodeInfo()];
  }

  private async listNodes(min: string, max: string): Promise<LiveNode[]> {
    const rows = (await this.run('listNodes', this.nodeKeys(), [min, max])) as (string | null)[];
    const nodes: LiveNode[] = [];
    for (let i = 0; i < rows.length; i += 3) {
      const json = rows[i + 2];
      if (json === null) continue; // registry and advert hash disagree only if edited by hand
      nodes.push({ nodeId: rows[i] as string, lastBeat: Number(rows[i + 1]), info: JSON.parse(json) as NodeAdvert });
    }
    return nodes.sort((a, b) => (a.nodeId < b.nodeId ? -1 : a.nodeId > b.nodeId ? 1 : 0));
  }

  /** An idle blocking connection, or a new duplicate (no command timeout: BLMOVE carries its own). */
  private takeBlockingConnection(): Redis {
    const idle = this.idleBlocking.pop();
    if (idle) return idle;
    const name = this.redis.options.connectionName;
    const connection = this.redis.duplicate({ commandTimeout: undefined, connectionName: name ? `${name}:claim` : undefined });
    // Connection trouble is reported by the shared client's owner and surfaces here as a rejected claim.
    connection.on('error', () => undefined);
    this.blocking.add(connection);
    return connection;
  }

  /** Keeps the connection for the next claim, unless close() already disconnected it (disconnect once only). */
  private giveBackBlockingConnection(connection: Redis): void {
    if (!this.closed && this.blocking.has(connection)) this.idleBlocking.push(connection);
  }
}


/** Runs a MULTI/pipeline and returns its replies, throwing the first command error. */
async function execAll(tx: ChainableCommander): Promise<unknown[]> {
  const results = await tx.exec();
  if (results === null) throw new Error('Redis transaction was aborted');
  return results.map(([error, value]) => {
    if (error) throw error;
    return value;
  });
}
