import type { ChainableCommander, Redis } from 'ioredis';
import { ValidationError } from '../../../common/index.js';
import { claimWithWait, type ClaimTry, untilFirst } from '../claim-wait.js';
import { checkBucketArgs, checkShare, checkSlotArgs, groupReadyByApp, toTtl } from '../port-args.js';
import type { ClaimedItem, ClaimShare, CoordinationPort, LiveNode, NodeAdvert, ReadyItem, TokenTake } from '../coordination.port.js';
import { RedisKeys } from './redis-keys.js';
import { ScriptLoader, type ScriptName } from './script-loader.js';

let defaultScripts: ScriptLoader | undefined;

/**
 * {@link CoordinationPort} on Redis 7 (single, Sentinel or Cluster; cluster deployment shape, DESIGN §1, §3).
 *
 * Keys come from {@link RedisKeys} (one hash tag per namespace); everything needing atomicity is a Lua
 * script in `lua/`. A waiting claim blocks (BLPOP of the node's bell) on a connection of its own, duplicated
 * lazily from the shared client, one per node waited on, so a waiting claim never stalls other commands or
 * other nodes' claims.
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
  /** The pending BLPOP of each node's bell that this adapter's waiting claims share. */
  private readonly bells = new Map<string, Promise<void>>();

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

  /** {@inheritDoc CoordinationPort.pushReady} One script call (`lua/pushReady-2.lua`). */
  async pushReady(nodeId: string, items: ReadyItem[]): Promise<void> {
    if (items.length === 0) return;
    const args: (string | number)[] = [this.keys.readyAppPrefix(nodeId)];
    for (const [appId, ids] of groupReadyByApp(items)) args.push(encodeURIComponent(appId), ids.length, ...ids);
    await this.run('pushReady', [this.keys.readyApps(nodeId), this.keys.readyBell(nodeId)], args);
  }

  /** {@inheritDoc CoordinationPort.claim} */
  async claim(nodeId: string, timeoutMs: number): Promise<string | null> {
    return (await this.claimMany(nodeId, 1, timeoutMs))[0]?.id ?? null;
  }

  /**
   * {@inheritDoc CoordinationPort.claimMany}
   * Each try is one script call (`lua/claimMany-4.lua`); a wait blocks on the node's bell (BLPOP) on a
   * connection of its own, shared by the claims of this adapter waiting on the same node. `timeoutMs <= 0`
   * does not wait. Pending claims resolve [] when the adapter is closed.
   */
  async claimMany(nodeId: string, max: number, timeoutMs: number, share?: ClaimShare): Promise<ClaimedItem[]> {
    checkShare(share);
    if (this.closed || !(max >= 1)) return [];
    const n = Math.floor(max);
    return claimWithWait(() => this.claimOnce(nodeId, n, share), (ms, freed) => this.waitPush(nodeId, ms, freed), timeoutMs, share, () => this.closed);
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
    const keys = [this.keys.processing(nodeId), this.keys.legacyReady(nodeId), this.keys.readyApps(nodeId), this.keys.readyBell(nodeId)];
    return (await this.run('drainNode', keys, [this.keys.readyAppPrefix(nodeId)])) as string[];
  }

  /** {@inheritDoc CoordinationPort.queueDepth} */
  async queueDepth(nodeId: string): Promise<{ ready: number; processing: number }> {
    const [ready, processing] = (await this.readQueues(nodeId, 'lengths')) as number[];
    return { ready, processing };
  }

  /** {@inheritDoc CoordinationPort.queueDepths} One script call per node, sent together (not atomic across nodes). */
  queueDepths(nodeIds: string[]): Promise<Array<{ ready: number; processing: number }>> {
    return Promise.all(nodeIds.map((nodeId) => this.queueDepth(nodeId)));
  }

  /** {@inheritDoc CoordinationPort.queuedIds} */
  async queuedIds(nodeId: string): Promise<Set<string>> {
    return new Set((await this.readQueues(nodeId, 'ids')) as string[]);
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

  /** One try of a claim: what the script took (app ids decoded, null for the previous version's list) and whether the cap held work back. */
  private async claimOnce(nodeId: string, max: number, share: ClaimShare | undefined): Promise<ClaimTry> {
    if (this.closed) return { items: [], capped: false };
    const held: (string | number)[] = [];
    for (const [appId, n] of share?.held ?? []) if (n > 0) held.push(encodeURIComponent(appId), n);
    const keys = [this.keys.readyApps(nodeId), this.keys.processing(nodeId), this.keys.legacyReady(nodeId), this.keys.readyBell(nodeId)];
    const [capped, ...pairs] = (await this.run('claimMany', keys, [this.keys.readyAppPrefix(nodeId), max, share?.cap ?? 0, ...held])) as [number, ...string[]];
    const items: ClaimedItem[] = [];
    for (let i = 0; i < pairs.length; i += 2) items.push({ id: pairs[i], appId: pairs[i + 1] === '' ? null : decodeURIComponent(pairs[i + 1]) });
    return { items, capped: capped === 1 };
  }

  /**
   * Waits up to `ms` for a token on the node's bell, or for `freed` to abort. One BLPOP per node at a time:
   * claims waiting on the same node share it (a claim that gave up on a wait leaves its BLPOP pending, and a
   * second one beside it would take the next token from the first, whose caller no longer listens).
   */
  private waitPush(nodeId: string, ms: number, freed?: AbortSignal): Promise<void> {
    let bell = this.bells.get(nodeId);
    if (!bell) {
      const pending: Promise<void> = this.popBell(nodeId, ms).finally(() => {
        if (this.bells.get(nodeId) === pending) this.bells.delete(nodeId);
      });
      this.bells.set(nodeId, (bell = pending));
    }
    return untilFirst(bell, ms, freed);
  }

  /** BLPOP of the node's bell on a blocking connection (seconds with decimals; below 1 ms Redis would read 0, "forever"). */
  private async popBell(nodeId: string, ms: number): Promise<void> {
    const connection = this.takeBlockingConnection();
    try {
      await connection.blpop(this.keys.readyBell(nodeId), Math.max(1, Math.ceil(ms)) / 1000);
    } catch (error) {
      if (!this.closed) throw error;
    } finally {
      this.giveBackBlockingConnection(connection);
    }
  }

  /** One atomic read of a node's queues (`lua/readQueues-3.lua`): every id they hold, or their lengths [ready, processing]. */
  private readQueues(nodeId: string, what: 'ids' | 'lengths'): Promise<unknown> {
    return this.run('readQueues', [this.keys.readyApps(nodeId), this.keys.legacyReady(nodeId), this.keys.processing(nodeId)], [this.keys.readyAppPrefix(nodeId), what]);
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

  /** An idle blocking connection, or a new duplicate (no command timeout: BLPOP carries its own). */
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
