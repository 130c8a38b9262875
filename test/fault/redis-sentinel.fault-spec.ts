import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { describeFigures, runFailover, unclear } from '../utils/redis-failover.js';
import { freePort, type OwnServer, startMariadb, startRedis } from '../utils/own-servers.js';

const cli = (port: number, ...args: string[]) =>
  execFileSync('redis-cli', ['-p', String(port), ...args], { timeout: 5000 })
    .toString()
    .trim();

/**
 * A Sentinel failover under load (issue 27): a master, one replica and three sentinels of the test's own on
 * loopback; the product reaches them by REDIS_SENTINELS. The master is SIGKILLed while cron jobs fire every second
 * and tasks are submitted; the sentinels promote the replica. Nothing may be lost or doubled (the chaos verdict),
 * every answer must be a 2xx or a 503 with Retry-After within HANG_MS (10 s), and the figures are printed.
 */
describe('Redis Sentinel failover under load', () => {
  const servers: OwnServer[] = [];
  const dir = mkdtempSync(join(tmpdir(), 'tw-sentinel-'));

  afterAll(async () => {
    await Promise.all(servers.map((s) => s.stop()));
    rmSync(dir, { recursive: true, force: true });
  });

  it('loses and doubles nothing when the sentinels promote the replica of a killed master', async () => {
    // A MariaDB of its own: the shared one's migration lock, held by another suite's migrations, would stall the start.
    const mariadb = await startMariadb();
    servers.push(mariadb);
    const master = await startRedis();
    servers.push(master);
    const replica = await startRedis(['--replicaof', '127.0.0.1', String(master.port)]);
    servers.push(replica);
    const sentinels: OwnServer[] = [];
    for (let i = 0; i < 3; i++) {
      const port = await freePort();
      const file = join(dir, `sentinel-${i}.conf`);
      writeFileSync(
        file,
        [
          `sentinel monitor tw 127.0.0.1 ${master.port} 2`,
          'sentinel down-after-milliseconds tw 1000',
          'sentinel failover-timeout tw 5000',
          'sentinel parallel-syncs tw 1',
          '',
        ].join('\n'),
      );
      sentinels.push(await startRedis(['--sentinel'], port, file));
    }
    servers.push(...sentinels);
    const masterPort = () => Number(cli(sentinels[0].port, 'sentinel', 'get-master-addr-by-name', 'tw').split('\n')[1]);
    expect(masterPort()).toBe(master.port);

    const f = await runFailover(
      'sentinel',
      {
        env: {
          REDIS_SENTINELS: sentinels.map((s) => `127.0.0.1:${s.port}`).join(','),
          REDIS_SENTINEL_NAME: 'tw',
        },
        killMaster: () => master.signal('SIGKILL'),
        promoted: async () => masterPort() === replica.port,
        adminClient: () => new Redis({ port: replica.port, host: '127.0.0.1', lazyConnect: false }),
      },
      { dbUrl: `mysql://root@127.0.0.1:${mariadb.port}/test` },
    );
    process.stdout.write(`${describeFigures('sentinel', f)}\n`);
    expect(f.verdict.examples).toEqual([]);
    expect(f.verdict.ok).toBe(true);
    expect(f.unaccepted).toBe(0);
    expect(unclear(f.after)).toEqual([]); // every answer a 2xx or a 503 with Retry-After, none hung
  }, 240_000);
});
