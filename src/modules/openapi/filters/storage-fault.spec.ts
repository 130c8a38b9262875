import { ReplyError } from 'ioredis';
import { isRedisUnavailable } from './storage-fault.js';

describe('isRedisUnavailable', () => {
  it("should count a Cluster client's spent redirections during a failover, and not a plain reply error", () => {
    // ioredis Cluster's message once its retries over a failover ran out (test/fault/redis-cluster.fault-spec.ts).
    const spent = new Error('Too many Cluster redirections. Last error: Error: Connection is closed.');
    expect(isRedisUnavailable(spent)).toBe(true);
    expect(isRedisUnavailable(new ReplyError('CLUSTERDOWN The cluster is down'))).toBe(true);
    expect(isRedisUnavailable(new ReplyError('WRONGTYPE Operation against a key of the wrong kind'))).toBe(false);
  });
});
