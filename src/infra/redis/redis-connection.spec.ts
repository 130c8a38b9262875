import { Cluster, Redis } from 'ioredis';
import { duplicateClient } from './redis-connection.js';

/** The shared client auto-pipelines; its copies carry blocking commands and subscriptions, so they must not. */
describe('duplicateClient', () => {
  it('should copy a one-server client without auto-pipelining, keeping its settings and naming it', async () => {
    const main = new Redis({ lazyConnect: true, enableAutoPipelining: true, connectionName: 'tickwheel:main' });
    const copy = duplicateClient(main, 'claim', { commandTimeout: undefined }) as Redis;
    expect(copy.options).toMatchObject({ enableAutoPipelining: false, connectionName: 'tickwheel:main:claim' });
    expect(main.options.enableAutoPipelining).toBe(true);
    copy.disconnect();
    main.disconnect();
  });

  it('should copy a Cluster client as a Cluster client without auto-pipelining', async () => {
    const main = new Cluster([{ host: '127.0.0.1', port: 1 }], {
      lazyConnect: true,
      enableAutoPipelining: true,
      redisOptions: { connectionName: 'tickwheel:main' },
    });
    const copy = duplicateClient(main, 'sub') as Cluster;
    expect(copy.isCluster).toBe(true);
    expect(copy.options.enableAutoPipelining).toBe(false);
    expect(copy.options.redisOptions?.connectionName).toBe('tickwheel:main:sub');
    copy.disconnect();
    main.disconnect();
  });
});
