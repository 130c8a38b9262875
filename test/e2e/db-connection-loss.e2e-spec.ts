import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { TickwheelClient } from '../../src/client/tickwheel-client.js';
import { HttpReceiver, startReceiver } from '../utils/http-receiver.js';
import {
  clusterEnv,
  MYSQL_URL,
  signedClient,
  startNode,
  statusCounts,
  TestNode,
  uniqueNamespace,
  waitFor,
} from '../utils/test-node.js';
import { deleteNamespaceRows } from '../utils/namespace-rows.js';
import { sleep } from '../utils/async.js';

const N = 400;

/**
 * The executor's MariaDB connections are killed again and again while it claims and finishes tasks
 * (`KILL CONNECTION` on every connection of its own database user). Claims and finishing writes are
 * retried through lost connections (withDbRetry), so every task still ends SUCCESS exactly once and none
 * is left RUNNING for its 180-s lease to take back — the way session 2's CI run left 20 tasks RUNNING.
 */
describe('executor database connections killed mid-run (MariaDB + Redis)', () => {
  const ns = uniqueNamespace('e2e-dbkill');
  const user = `twk_${randomUUID().slice(0, 8)}`;
  let admin: DataSource;
  let api: TestNode;
  let executor: TestNode;
  let receiver: HttpReceiver;
  let client: TickwheelClient;

  beforeAll(async () => {
    admin = await new DataSource({ type: 'mysql', url: MYSQL_URL }).initialize();
    for (const host of ['%', 'localhost']) {
      await admin.query(`CREATE USER '${user}'@'${host}' IDENTIFIED BY ''`);
      await admin.query(`GRANT ALL ON \`${new URL(MYSQL_URL).pathname.slice(1)}\`.* TO '${user}'@'${host}'`); // the tests' database (TEST_DB_URL)
    }
    receiver = await startReceiver();
    // The product's 15-s offline threshold: a busy CI worker must not get the executor declared offline.
    api = await startNode(clusterEnv(ns, { ROLES: 'api,scheduler', NODE_OFFLINE_AFTER_MS: '15000' }));
    executor = await startNode(
      clusterEnv(ns, {
        ROLES: 'executor',
        NODE_NAME: 'dbkill',
        NODE_OFFLINE_AFTER_MS: '15000',
        DB_URL: MYSQL_URL.replace('//root@', `//${user}@`),
      }),
    );
    client = await signedClient(api);
  }, 60_000);

  afterAll(async () => {
    await executor?.close();
    await api?.close();
    await receiver?.close();
    await deleteNamespaceRows(admin, ns);
    for (const host of ['%', 'localhost']) await admin.query(`DROP USER IF EXISTS '${user}'@'${host}'`);
    await admin.destroy();
  });

  /** Kills every connection of the executor's user; returns how many. */
  async function killExecutorConnections(): Promise<number> {
    const rows: Array<{ ID: string | number }> = await admin.query(
      'SELECT ID FROM information_schema.PROCESSLIST WHERE USER = ?',
      [user],
    );
    let killed = 0;
    for (const r of rows) {
      killed += await admin.query(`KILL CONNECTION ${Number(r.ID)}`).then(
        () => 1,
        () => 0,
      ); // may have closed meanwhile
    }
    return killed;
  }

  it(`should run ${N} tasks to SUCCESS exactly once each while its connections keep being killed`, async () => {
    const tasks = Array.from({ length: N }, (_, i) => ({
      requestId: `k-${i}`,
      handler: 'http',
      params: { method: 'POST', url: `${receiver.url}/hook`, body: { i } },
    }));
    let kills = 0;
    let stop = false;
    const killer = (async () => {
      while (!stop) {
        kills += await killExecutorConnections();
        await sleep(40); // pacing: kill the connections again and again
      }
    })();
    try {
      for (let i = 0; i < N; i += 100) {
        const res = await client.submitTasks(tasks.slice(i, i + 100));
        expect(res.status).toBe(202);
      }
      await waitFor(
        `${N} tasks SUCCESS`,
        async () => (await statusCounts(api.ds, ns)).SUCCESS === N,
        90_000,
        100,
      ).catch(async (err: Error) => {
        throw new Error(
          `${err.message}; statuses now ${JSON.stringify(await statusCounts(api.ds, ns))} after ${kills} kills`,
        );
      });
    } finally {
      stop = true;
      await killer;
    }
    process.stdout.write(`[e2e dbkill] ${N} tasks SUCCESS through ${kills} killed executor connections\n`);
    expect(kills).toBeGreaterThan(5);
    expect(await statusCounts(api.ds, ns)).toEqual({ SUCCESS: N });
    expect(receiver.seen.size).toBe(N);
    expect([...receiver.seen.values()].every((c) => c === 1)).toBe(true);
    const attempts: Array<{ status: string; c: string }> = await api.ds.query(
      'SELECT a.status, COUNT(*) AS c FROM job_attempt a JOIN job_instance i ON i.id = a.instance_id WHERE i.namespace = ? GROUP BY a.status',
      [ns],
    );
    expect(Object.fromEntries(attempts.map((a) => [a.status, Number(a.c)]))).toEqual({ SUCCESS: N });
  }, 150_000);
});
