import { duplicateClient, type RedisClient } from '../../../infra/redis/index.js';
import type { SignalPort } from '../coordination.port.js';
import { RedisPart } from './redis-part.js';

/**
 * {@link SignalPort} on Redis pub/sub. One subscriber connection (a connection in subscribe mode serves
 * nothing else), duplicated from the shared client on the first subscribe, serves every channel.
 */
export class RedisSignal extends RedisPart implements SignalPort {
  private subscriber: RedisClient | null = null;
  /** Listeners by channel key. */
  private readonly listeners = new Map<string, Set<(message: string) => void>>();
  private closed = false;

  async publish(name: string, message: string): Promise<void> {
    await this.redis.publish(this.keys.channel(name), message);
  }

  async subscribe(name: string, listener: (message: string) => void): Promise<() => Promise<void>> {
    if (this.closed) throw new Error('coordination adapter is closed');
    const channel = this.keys.channel(name);
    const subscriber = (this.subscriber ??= this.connectSubscriber());
    let set = this.listeners.get(channel);
    if (!set) {
      this.listeners.set(channel, (set = new Set()));
      await subscriber.subscribe(channel);
    }
    set.add(listener);
    return async () => {
      const current = this.listeners.get(channel);
      if (!current?.delete(listener) || current.size > 0) return;
      this.listeners.delete(channel);
      if (this.subscriber && !this.closed) await this.subscriber.unsubscribe(channel).catch(() => undefined);
    };
  }

  /** Disconnects the subscriber connection and drops every listener. Idempotent. */
  async close(): Promise<void> {
    this.closed = true;
    this.subscriber?.disconnect();
    this.subscriber = null;
    this.listeners.clear();
  }

  /** In a Redis Cluster, PUBLISH reaches every node: a subscriber on any node hears every channel. */
  private connectSubscriber(): RedisClient {
    const sub = duplicateClient(this.redis, 'sub');
    sub.on('error', () => undefined); // reported by the shared client's owner; ioredis resubscribes on reconnect
    sub.on('message', (ch: string, message: string) => {
      for (const l of this.listeners.get(ch) ?? []) l(message);
    });
    return sub;
  }
}
