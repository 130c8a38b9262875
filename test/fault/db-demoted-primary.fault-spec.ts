import mysql from 'mysql2/promise';
import {
  APP_USER,
  promote,
  rootQuery,
  startReplicatedPair,
  type ReplicatedPair,
} from '../utils/mariadb-replication.js';

const connectAs = (port: number, user: { user: string; password?: string }) =>
  mysql.createConnection({ host: '127.0.0.1', port, database: 'test', ...user });

/**
 * A write that reaches a demoted primary (a stale leader or executor whose session was not cut, a proxy that still
 * routes to it) must not commit there, or it is lost from the new primary while its writer believes it done
 * (docs/deploy.md "Database failover"). Two fences, both on the operator's side, each checked here on the test's own
 * primary and replica: `read_only=ON` on the demoted primary refuses the app user (no SUPER, no READ ONLY ADMIN)
 * while root writes through it; and lossless semi-sync with `rpl_semi_sync_master_wait_no_slave=ON` and a long
 * timeout holds an isolated primary's commit instead of acknowledging it.
 */
describe('a demoted primary', () => {
  let pair: ReplicatedPair;

  beforeAll(async () => {
    pair = await startReplicatedPair();
    await rootQuery(pair.primary.port, 'CREATE TABLE test.fence (id INT PRIMARY KEY, who VARCHAR(20))');
  }, 90_000);
  afterAll(() => pair?.stop());

  it('should refuse the app user once read_only, though not root', async () => {
    await rootQuery(pair.primary.port, 'SET GLOBAL read_only = ON');
    const app = await connectAs(pair.primary.port, APP_USER);
    try {
      await expect(app.query("INSERT INTO fence VALUES (1, 'app')")).rejects.toMatchObject({
        code: 'ER_OPTION_PREVENTS_STATEMENT',
      });
    } finally {
      await app.end();
    }
    // A root or SUPER session is not fenced: why DB_URL must name a user without those privileges.
    await rootQuery(pair.primary.port, "INSERT INTO test.fence VALUES (2, 'root')");
    await rootQuery(pair.primary.port, 'SET GLOBAL read_only = OFF');
  }, 30_000);

  it('should hold an isolated primary commit unacknowledged, and the promoted replica never has it', async () => {
    await promote(pair.replica); // the replica stops replicating: the old primary has no semi-sync client left
    const app = await connectAs(pair.primary.port, APP_USER);
    try {
      const write = app.query("INSERT INTO fence VALUES (3, 'stale')").then(
        () => 'acknowledged',
        (err: Error) => `failed: ${err.message}`,
      );
      const outcome = await Promise.race([write, new Promise((r) => setTimeout(() => r('waiting'), 3_000))]);
      expect(outcome).toBe('waiting');
      const [status] = await rootQuery(pair.primary.port, "SHOW STATUS LIKE 'Rpl_semi_sync_master_wait_sessions'");
      expect(Number(status?.Value)).toBe(1);
      const rows = await rootQuery(pair.replica.port, 'SELECT id FROM test.fence ORDER BY id');
      expect(rows.map((r) => Number(r.id))).toEqual([2]);
    } finally {
      app.destroy();
    }
  }, 30_000);
});
