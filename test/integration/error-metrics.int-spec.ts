import { createServer } from 'node:net';
import type { Redis } from 'ioredis';
import { DataSource } from 'typeorm';
import { REDIS_CLIENT } from '../../src/modules/coordination/index.js';
import { countConnectionFailures, DbErrorCounter } from '../../src/modules/metadata/index.js';
import { MetricsService } from '../../src/modules/observability/index.js';
import { clusterEnv, MYSQL_URL, startNode, type TestNode, uniqueNamespace } from '../utils/test-node.js';

/** A TCP port nothing listens on (bound, then released). */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/**
 * `tickwheel_db_errors_total` and `tickwheel_redis_errors_total` (docs/observability.md) move on real failures of
 * the real MariaDB and Redis, provoked through a booted node's own DataSource and Redis client (or connections
 * the test owns): a failing statement, a duplicate key, a killed connection, a refused connection attempt, a
 * command Redis answers with an error, a refused Redis connection. What is not a failure does not count.
 */
describe('database and Redis error counters (MariaDB + Redis)', () => {
  const ns = uniqueNamespace('int-errmetrics');
  let node: TestNode;
  let metrics: MetricsService;
  let redis: Redis;

  beforeAll(async () => {
    node = await startNode(clusterEnv(ns, { ROLES: 'api' }));
    metrics = node.app.get(MetricsService);
    redis = node.app.get<Redis>(REDIS_CLIENT);
  });

  afterAll(async () => {
    await redis?.del(`${ns}:probe`);
    await node?.close();
  });

  /** The counter's value for `kind`. */
  async function count(metric: 'dbErrors' | 'redisErrors', kind: string): Promise<number> {
    const values = (await metrics[metric].get()).values;
    return values.find((v) => v.labels.kind === kind)?.value ?? 0;
  }

  /** How much each kind of `metric` moved while `fn` ran. */
  async function moved(
    metric: 'dbErrors' | 'redisErrors',
    fn: () => Promise<unknown>,
  ): Promise<Record<string, number>> {
    const kinds = metric === 'dbErrors' ? ['conflict', 'connection', 'other'] : ['connection', 'command'];
    const before = await Promise.all(kinds.map((k) => count(metric, k)));
    await fn();
    const after = await Promise.all(kinds.map((k) => count(metric, k)));
    return Object.fromEntries(kinds.map((k, i) => [k, after[i] - before[i]]));
  }

  it('should count a failing statement as other, and not a good one', async () => {
    const delta = await moved('dbErrors', async () => {
      await node.ds.query('SELECT 1');
      await expect(node.ds.query('SELECT * FROM tw_no_such_table')).rejects.toThrow(/doesn't exist/);
    });
    expect(delta).toEqual({ conflict: 0, connection: 0, other: 1 });
  });

  it('should count a duplicate key as a conflict', async () => {
    const runner = node.ds.createQueryRunner(); // a temporary table lives on one connection
    try {
      await runner.query('CREATE TEMPORARY TABLE tw_probe (id INT PRIMARY KEY)');
      const delta = await moved('dbErrors', async () => {
        await runner.query('INSERT INTO tw_probe VALUES (1)');
        await expect(runner.query('INSERT INTO tw_probe VALUES (1)')).rejects.toThrow(/Duplicate/);
      });
      expect(delta).toEqual({ conflict: 1, connection: 0, other: 0 });
    } finally {
      await runner.query('DROP TEMPORARY TABLE IF EXISTS tw_probe').catch(() => undefined);
      await runner.release();
    }
  });

  it('should count a statement whose connection is killed as a connection error', async () => {
    const runner = node.ds.createQueryRunner();
    try {
      const [{ id }] = (await runner.query('SELECT CONNECTION_ID() AS id')) as Array<{ id: number }>;
      const delta = await moved('dbErrors', async () => {
        // Settled at once: the kill can reject it before the KILL statement's own answer arrives.
        const sleeping = runner.query('SELECT SLEEP(20)').then(
          () => null,
          (err: unknown) => err,
        );
        await new Promise((resolve) => setTimeout(resolve, 200));
        await node.ds.query(`KILL CONNECTION ${Number(id)}`);
        expect(await sleeping).toBeInstanceOf(Error);
      });
      expect(delta).toEqual({ conflict: 0, connection: 1, other: 0 });
    } finally {
      await runner.release();
    }
  });

  it("should count a connection attempt the server refuses (the pool's, before any statement)", async () => {
    const user = `tw_${ns.replace(/[^a-z0-9]/g, '_')}`;
    const url = new URL(MYSQL_URL);
    const database = url.pathname.slice(1);
    await node.ds.query(`CREATE USER '${user}'@'%' IDENTIFIED BY 'probe' WITH MAX_USER_CONNECTIONS 1`);
    await node.ds.query(`GRANT SELECT ON \`${database}\`.* TO '${user}'@'%'`);
    Object.assign(url, { username: user, password: 'probe' });
    const sink = new DbErrorCounter((kind) => metrics.dbErrors.inc({ kind }));
    const limited = new DataSource({ type: 'mysql', url: url.toString(), logger: sink, extra: { connectionLimit: 2 } });
    try {
      await limited.initialize(); // one connection, idle in the pool
      countConnectionFailures(limited, sink.sink);
      const delta = await moved('dbErrors', async () => {
        // The second needs a second connection: over the user's limit (ER_USER_LIMIT_REACHED).
        const both = await Promise.allSettled([limited.query('SELECT SLEEP(0.3)'), limited.query('SELECT SLEEP(0.3)')]);
        expect(both.map((r) => r.status).sort()).toEqual(['fulfilled', 'rejected']);
      });
      expect(delta).toEqual({ conflict: 0, connection: 1, other: 0 });
    } finally {
      if (limited.isInitialized) await limited.destroy();
      await node.ds.query(`DROP USER IF EXISTS '${user}'@'%'`);
    }
  });

  it('should count a command Redis answers with an error, on the shared client and its duplicates', async () => {
    const key = `${ns}:probe`;
    const copy = redis.duplicate();
    try {
      const delta = await moved('redisErrors', async () => {
        await redis.set(key, 'not a number');
        await expect(redis.incr(key)).rejects.toThrow(/not an integer/);
        await expect(copy.incr(key)).rejects.toThrow(/not an integer/);
      });
      expect(delta).toEqual({ connection: 0, command: 2 });
    } finally {
      copy.disconnect();
    }
  });

  it('should not count NOSCRIPT (ioredis sends the script again) nor a command after its own close', async () => {
    const copy = redis.duplicate();
    await copy.ping();
    const delta = await moved('redisErrors', async () => {
      await expect(copy.evalsha('0'.repeat(40), 0)).rejects.toThrow(/NOSCRIPT/);
      await copy.quit();
      await expect(copy.ping()).rejects.toThrow(/Connection is closed/);
    });
    expect(delta).toEqual({ connection: 0, command: 0 });
  });

  it('should count a refused Redis connection as a connection error', async () => {
    const port = await closedPort();
    const copy = redis.duplicate({ port, host: '127.0.0.1', lazyConnect: true, retryStrategy: () => null });
    const refused = new Promise<Error>((resolve) => copy.once('error', resolve));
    const delta = await moved('redisErrors', async () => {
      await copy.connect().catch(() => undefined);
      expect((await refused).message).toMatch(/ECONNREFUSED/);
    });
    copy.disconnect();
    expect(delta.connection).toBeGreaterThanOrEqual(1);
  });
});
