import { CLUSTER, configErrorOf } from '../../test/utils/load-config.js';
import { loadConfig } from './load-config.js';

const { REDIS_URL: _url, ...NO_REDIS } = CLUSTER;
const SENTINEL = { ...NO_REDIS, REDIS_SENTINELS: 's1:26379, s2:26380,[::1]:26381', REDIS_SENTINEL_NAME: 'mymaster' };
const NODES = { ...NO_REDIS, REDIS_CLUSTER_NODES: 'r1:7000,r2:7001' };

describe('Redis topology settings', () => {
  it('should read one server, a Sentinel group or a Cluster, each making the cluster shape', () => {
    expect(loadConfig(CLUSTER).redis).toEqual({ kind: 'single', url: CLUSTER.REDIS_URL });
    const sentinel = loadConfig({ ...SENTINEL, REDIS_PASSWORD: 'pw', REDIS_SENTINEL_PASSWORD: 'spw' });
    expect(sentinel.shape).toBe('cluster');
    expect(sentinel.redisUrl).toBeUndefined();
    expect(sentinel.redis).toEqual({
      kind: 'sentinel',
      sentinels: [
        { host: 's1', port: 26379 },
        { host: 's2', port: 26380 },
        { host: '::1', port: 26381 },
      ],
      name: 'mymaster',
      password: 'pw',
      sentinelPassword: 'spw',
    });
    const cluster = loadConfig(NODES);
    expect(cluster.redis).toEqual({
      kind: 'cluster',
      nodes: [
        { host: 'r1', port: 7000 },
        { host: 'r2', port: 7001 },
      ],
      password: undefined,
    });
  });

  it.each([
    ['two topologies', { ...SENTINEL, REDIS_URL: CLUSTER.REDIS_URL }, 'REDIS_SENTINELS', /exactly one Redis topology/],
    ['URL and nodes', { ...NODES, REDIS_URL: CLUSTER.REDIS_URL }, 'REDIS_CLUSTER_NODES', /exactly one/],
    ['sentinels and nodes', { ...SENTINEL, REDIS_CLUSTER_NODES: 'r:1' }, 'REDIS_CLUSTER_NODES', /exactly one/],
    ['sentinels without a name', { ...NO_REDIS, REDIS_SENTINELS: 's:26379' }, 'REDIS_SENTINEL_NAME', /required/],
    ['a name without sentinels', { ...CLUSTER, REDIS_SENTINEL_NAME: 'm' }, 'REDIS_SENTINEL_NAME', /without/],
    ['a sentinel password alone', { ...NODES, REDIS_SENTINEL_PASSWORD: 'x' }, 'REDIS_SENTINEL_PASSWORD', /without/],
    ['a password with a URL', { ...CLUSTER, REDIS_PASSWORD: 'x' }, 'REDIS_PASSWORD', /in REDIS_URL/],
    ['a node without a port', { ...NO_REDIS, REDIS_CLUSTER_NODES: 'r1,r2:7000' }, 'REDIS_CLUSTER_NODES', /host:port/],
    ['a port too high', { ...NO_REDIS, REDIS_CLUSTER_NODES: 'r1:70000' }, 'REDIS_CLUSTER_NODES', /1-65535/],
    ['sentinels without DB_URL', { REDIS_SENTINELS: 's:1', REDIS_SENTINEL_NAME: 'm' }, 'DB_URL', /REDIS_SENTINELS is/],
  ])('should refuse %s, naming the setting', (_what, env, setting, message) => {
    const err = configErrorOf(env);
    expect(err.field).toBe(setting);
    expect(err.message).toMatch(message);
  });
});
