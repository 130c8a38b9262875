import type { ChainableCommander, Redis } from 'ioredis';
import { ValidationError } from '../../../common/index.js';
import type { CoordinationPort, LiveNode, NodeAdvert } from '../coordination.port.js';
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

  /** {@inheritDoc CoordinationPort.ack} */
  async ack(nodeId: string, id: string): Promise<void> {
    await this.redis.lrem(this.keys.processing(nodeId), 1, id);
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

  /** {@inheritDoc CoordinationPort.isQueued} */
  async isQueued(nodeId: string, id: string): Promise<boolean> {
    const tx = this.redis.multi().lpos(this.keys.ready(nodeId), id).lpos(this.keys.processing(nodeId), id);
    return (await execAll(tx)).some((position) => position !== null);
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

  /** {@inheritDoc CoordinationPort.increment} */
  async increment(name: string, by = 1): Promise<number> {
    if (!Number.isSafeInteger(by)) throw new ValidationError('by', `increment must be an integer, got ${by}`);
    return this.redis.incrby(this.keys.counter(name), by);
  }

  /** {@inheritDoc CoordinationPort.acceptNonce} */
  async acceptNonce(appId: string, nonce: string, ttlMs: number): Promise<boolean> {
    return (await this.redis.set(this.keys.nonce(appId, nonce), '1', 'PX', toTtl(ttlMs), 'NX')) === 'OK';
  }

  /** Disconnects the blocking connections this adapter created (pending claims resolve null). Idempotent. */
  async close(): Promise<void> {
    this.closed = true;
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

/** A TTL Redis accepts for PX: a positive whole number of ms. */
function toTtl(ttlMs: number): number {
  if (!(ttlMs > 0) || !Number.isFinite(ttlMs)) throw new ValidationError('ttlMs', `ttl must be a positive number of ms, got ${ttlMs}`);
  return Math.ceil(ttlMs);
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
