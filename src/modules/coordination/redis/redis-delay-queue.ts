import type { DelayQueuePort } from '../coordination.port.js';
import { RedisPart } from './redis-part.js';

/** {@link DelayQueuePort} on Redis: one sorted set, score = due time. */
export class RedisDelayQueue extends RedisPart implements DelayQueuePort {
  async scheduleDelayed(id: string, dueAtMs: number): Promise<void> {
    await this.redis.zadd(this.keys.delayed(), dueAtMs, id);
  }

  async takeDue(nowMs: number, limit: number): Promise<string[]> {
    if (!(limit >= 1)) return [];
    return (await this.run('takeDue', [this.keys.delayed()], [nowMs, Math.floor(limit)])) as string[];
  }

  async delayedDueAt(id: string): Promise<number | null> {
    const score = await this.redis.zscore(this.keys.delayed(), id);
    return score === null ? null : Number(score);
  }
}
