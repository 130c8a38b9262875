import type { ChainableCommander } from 'ioredis';
import { duplicateClient, type RedisClient } from '../../../infra/redis/index.js';
import { claimWithWait, type ClaimTry, untilFirst } from '../claim-wait.js';
import type { ClaimedItem, ClaimShare, NodeQueuePort, QueueDepth, ReadyItem } from '../coordination.port.js';
import { groupReadyByApp } from '../port-args.js';
import { RedisPart } from './redis-part.js';

/**
 * {@link NodeQueuePort} on Redis (per node: app sets by rank, rotation, processing list, bell; multi-key steps in Lua).
 * A waiting claim blocks on its own connection (BLPOP of the bell), so it never stalls other commands.
 */
export class RedisNodeQueue extends RedisPart implements NodeQueuePort {
  private readonly idleBlocking: RedisClient[] = [];
  private readonly blocking = new Set<RedisClient>();
  /** The pending BLPOP of each node's bell that this adapter's waiting claims share. */
  private readonly bells = new Map<string, Promise<void>>();
  private closed = false;

  async pushReady(nodeId: string, items: ReadyItem[]): Promise<void> {
    if (items.length === 0) return;
    const args: (string | number)[] = [this.keys.readyRankPrefix(nodeId)];
    for (const [appId, group] of groupReadyByApp(items)) {
      args.push(encodeURIComponent(appId), group.length);
      for (const { id, rank } of group) args.push(rank, id);
    }
    await this.run('pushReady', [this.keys.readyApps(nodeId), this.keys.readyBell(nodeId)], args);
  }

  async claim(nodeId: string, timeoutMs: number): Promise<string | null> {
    return (await this.claimMany(nodeId, 1, timeoutMs))[0]?.id ?? null;
  }

  /** Each try is one script call (`lua/claimMany-4.lua`); `timeoutMs <= 0` does not wait. */
  claimMany(nodeId: string, max: number, timeoutMs: number, share?: ClaimShare): Promise<ClaimedItem[]> {
    const steps = {
      tryOnce: (n: number) => this.claimOnce(nodeId, n, share),
      waitPush: (ms: number, freed?: AbortSignal) => this.waitPush(nodeId, ms, freed),
      closed: () => this.closed,
    };
    return claimWithWait(steps, max, timeoutMs, share);
  }

  async ack(nodeId: string, id: string): Promise<void> {
    await this.redis.lrem(this.keys.processing(nodeId), 1, id);
  }

  /** One round trip (a pipeline of LREM). */
  async ackMany(nodeId: string, ids: string[]): Promise<void> {
    if (ids.length === 0) return;
    const key = this.keys.processing(nodeId);
    const pipeline = this.redis.pipeline();
    for (const id of ids) pipeline.lrem(key, 1, id);
    await execAll(pipeline);
  }

  async drainNode(nodeId: string): Promise<string[]> {
    const k = this.keys;
    const keys = [k.processing(nodeId), k.legacyReady(nodeId), k.readyApps(nodeId), k.readyBell(nodeId)];
    return (await this.run('drainNode', keys, [k.readyRankPrefix(nodeId), k.readyAppPrefix(nodeId)])) as string[];
  }

  async queueDepth(nodeId: string): Promise<QueueDepth> {
    const [ready, processing] = (await this.readQueues(nodeId, 'lengths')) as number[];
    return { ready, processing };
  }

  /** One script call per node, sent together. */
  queueDepths(nodeIds: string[]): Promise<QueueDepth[]> {
    return Promise.all(nodeIds.map((nodeId) => this.queueDepth(nodeId)));
  }

  async queuedIds(nodeId: string): Promise<Set<string>> {
    return new Set((await this.readQueues(nodeId, 'ids')) as string[]);
  }

  /** Disconnects the blocking connections made here; pending claims resolve []. Idempotent. */
  async close(): Promise<void> {
    this.closed = true;
    for (const connection of this.blocking) connection.disconnect();
    this.blocking.clear();
    this.idleBlocking.length = 0;
  }

  /** One try of a claim: the ids taken (app null for the legacy list), and whether the cap held any back. */
  private async claimOnce(nodeId: string, max: number, share: ClaimShare | undefined): Promise<ClaimTry> {
    if (this.closed) return { items: [], capped: false };
    const held: (string | number)[] = [];
    for (const [appId, n] of share?.held ?? []) if (n > 0) held.push(encodeURIComponent(appId), n);
    const k = this.keys;
    const keys = [k.readyApps(nodeId), k.processing(nodeId), k.legacyReady(nodeId), k.readyBell(nodeId)];
    const args = [k.readyRankPrefix(nodeId), k.readyAppPrefix(nodeId), max, share?.cap ?? 0, ...held];
    const [capped, ...pairs] = (await this.run('claimMany', keys, args)) as [number, ...string[]];
    const items: ClaimedItem[] = [];
    for (let i = 0; i < pairs.length; i += 2) {
      items.push({ id: pairs[i], appId: pairs[i + 1] === '' ? null : decodeURIComponent(pairs[i + 1]) });
    }
    return { items, capped: capped === 1 };
  }

  /**
   * Waits up to `ms` for the node's bell or for `freed`. Claims on one node share one BLPOP: a second beside an
   * abandoned one would lose the next token to it, whose caller no longer listens.
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

  /** BLPOP of the node's bell (seconds with decimals; below 1 ms Redis would read 0, "forever"). */
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

  /** One atomic read of a node's queues (`lua/readQueues-3.lua`): every id, or the lengths [ready, processing]. */
  private readQueues(nodeId: string, what: 'ids' | 'lengths'): Promise<unknown> {
    const k = this.keys;
    const keys = [k.readyApps(nodeId), k.legacyReady(nodeId), k.processing(nodeId)];
    return this.run('readQueues', keys, [k.readyRankPrefix(nodeId), k.readyAppPrefix(nodeId), what]);
  }

  /** An idle blocking connection, or a new duplicate (no command timeout: BLPOP carries its own). */
  private takeBlockingConnection(): RedisClient {
    const idle = this.idleBlocking.pop();
    if (idle) return idle;
    const connection = duplicateClient(this.redis, 'claim', { commandTimeout: undefined });
    // Connection trouble is reported by the shared client's owner and surfaces here as a rejected claim.
    connection.on('error', () => undefined);
    this.blocking.add(connection);
    return connection;
  }

  /** Keeps the connection for the next claim, unless close() already disconnected it (disconnect once only). */
  private giveBackBlockingConnection(connection: RedisClient): void {
    if (!this.closed && this.blocking.has(connection)) this.idleBlocking.push(connection);
  }
}

/** Runs a pipeline and returns its replies, throwing the first command error. */
async function execAll(tx: ChainableCommander): Promise<unknown[]> {
  const results = await tx.exec();
  if (results === null) throw new Error('Redis transaction was aborted');
  return results.map(([error, value]) => {
    if (error) throw error;
    return value;
  });
}
