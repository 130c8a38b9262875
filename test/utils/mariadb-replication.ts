import mysql from 'mysql2/promise';
import { setTimeout as sleep } from 'node:timers/promises';
import { startMariadb, type OwnServer } from './own-servers.js';

/** The app's database user: the privileges docs/deploy.md names, no SUPER nor READ ONLY ADMIN (read_only holds it). */
export const APP_USER = { user: 'tickwheel', password: 'tw-app-pw' } as const;

/** A MariaDB primary and its replica of this test (own servers on loopback), lossless semi-synchronous. */
export interface ReplicatedPair {
  primary: OwnServer;
  replica: OwnServer;
  stop(): Promise<void>;
}

const SEMI_SYNC = [
  '--rpl-semi-sync-master-enabled=ON',
  // The commit is acknowledged to the client only once the replica has it (lossless), and visible to no other
  // session before: AFTER_COMMIT would let an executor claim a fire that a crash then takes away.
  '--rpl-semi-sync-master-wait-point=AFTER_SYNC',
  // Never fall back to asynchronous in the test: a commit waits for the replica rather than risk being lost.
  '--rpl-semi-sync-master-timeout=600000',
  // Until the replica is attached (set ON then, as an operator's config would have it from the start).
  '--rpl-semi-sync-master-wait-no-slave=OFF',
];
const COMMON = ['--log-bin=binlog', '--binlog-format=ROW', '--rpl-semi-sync-slave-enabled=ON'];

/** Runs `sql` as root on `port`, one connection per call. @returns the rows of the last statement */
export async function rootQuery(port: number, sql: string): Promise<Record<string, unknown>[]> {
  const c = await mysql.createConnection({ host: '127.0.0.1', port, user: 'root', multipleStatements: true });
  try {
    const [rows] = await c.query(sql);
    return (Array.isArray(rows) ? rows : []) as Record<string, unknown>[];
  } finally {
    await c.end();
  }
}

/**
 * Starts a primary (server 1) and a read-only replica (server 2) with binary logs, GTID replication
 * (`MASTER_USE_GTID=slave_pos`) and lossless semi-synchronous replication (asynchronous when `semiSync` is false),
 * the app user created on the primary (and so replicated). @returns once the replica acknowledges the primary's
 * commits (semi-sync), or once replication is started.
 */
export async function startReplicatedPair({ semiSync = true } = {}): Promise<ReplicatedPair> {
  const [primary, replica] = await Promise.all([
    startMariadb(['--server-id=1', ...COMMON, ...(semiSync ? SEMI_SYNC : [])]),
    startMariadb(['--server-id=2', ...COMMON, '--read-only=ON']),
  ]);
  const pair = { primary, replica, stop: () => Promise.all([primary.stop(), replica.stop()]).then(() => undefined) };
  try {
    await rootQuery(
      primary.port,
      `CREATE USER 'repl'@'127.0.0.1' IDENTIFIED BY 'repl-pw'; GRANT REPLICATION SLAVE ON *.* TO 'repl'@'127.0.0.1';
       CREATE USER '${APP_USER.user}'@'127.0.0.1' IDENTIFIED BY '${APP_USER.password}';
       GRANT SELECT, INSERT, UPDATE, DELETE, CREATE, ALTER, INDEX, DROP ON test.* TO '${APP_USER.user}'@'127.0.0.1'`,
    );
    await rootQuery(
      replica.port,
      `RESET MASTER; CHANGE MASTER TO MASTER_HOST='127.0.0.1', MASTER_PORT=${primary.port}, MASTER_USER='repl',
       MASTER_PASSWORD='repl-pw', MASTER_CONNECT_RETRY=1, MASTER_USE_GTID=slave_pos; START SLAVE`,
    );
    for (let i = 0; semiSync; i++) {
      const [s] = await rootQuery(primary.port, "SHOW STATUS LIKE 'Rpl_semi_sync_master_clients'");
      if (Number(s?.Value) === 1) break;
      if (i > 300) throw new Error('the replica did not connect as a semi-synchronous slave within 30 s');
      await sleep(100);
    }
    if (semiSync) await rootQuery(primary.port, 'SET GLOBAL rpl_semi_sync_master_wait_no_slave = ON');
    return pair;
  } catch (err) {
    await pair.stop();
    throw err;
  }
}

/**
 * Promotes `replica` as an operator would once its primary is gone: waits until it has applied every
 * transaction it received (all the primary acknowledged, under semi-sync), then `STOP SLAVE; RESET SLAVE ALL`
 * and `read_only=OFF`. @returns the GTID position it was promoted at.
 */
export async function promote(replica: OwnServer, applyWaitS = 30): Promise<string> {
  const [status] = await rootQuery(replica.port, 'SHOW SLAVE STATUS');
  const received = String(status?.Gtid_IO_Pos ?? '');
  const [waited] = await rootQuery(replica.port, `SELECT MASTER_GTID_WAIT('${received}', ${applyWaitS}) AS r`);
  if (Number(waited?.r) !== 0) throw new Error(`the replica did not apply ${received} within ${applyWaitS} s`);
  await rootQuery(replica.port, 'STOP SLAVE; RESET SLAVE ALL; SET GLOBAL read_only = OFF');
  const [pos] = await rootQuery(replica.port, 'SELECT @@gtid_current_pos AS p');
  return String(pos?.p ?? '');
}
