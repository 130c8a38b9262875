// "DB floor" of one firing page: the product's SQL for a page, issued with bare mysql2 (no ORM, no cron
// computation), on the real tables under a scratch namespace. Compared with the page time the product
// shows, it says how much of a page is database time and how much is the process's own work.
import { randomUUID } from 'node:crypto';
import { registerJobs } from './db.mjs';
import { distribution } from './stats.mjs';

const INSTANCE_COLUMNS = [
  'id',
  'namespace',
  'app_id',
  'request_id',
  'job_id',
  'job_code',
  'handler',
  'fire_time',
  'shard_index',
  'shard_total',
  'trigger_source',
  'status',
  'attempt',
  'max_attempts',
  'retry_backoff_ms',
  'retry_backoff_kind',
  'timeout_ms',
  'routing_strategy',
  'fencing_token',
  'params',
  'trace_id',
  'due_at',
  'created_at',
  'updated_at',
];

/** One page as the product issues it: SELECT due page, one UPDATE per job, one multi-row INSERT IGNORE, COMMIT, SELECT by ids. */
async function onePage(conn, ns, size, fireTime) {
  const t0 = performance.now();
  await conn.beginTransaction();
  const [due] = await conn.query(
    'SELECT * FROM job_definition WHERE namespace = ? AND enabled = 1 AND next_fire_time <= ? ORDER BY next_fire_time ASC LIMIT ?',
    [ns, fireTime, size],
  );
  const t1 = performance.now();
  const now = Date.now();
  for (const d of due) {
    await conn.query(
      'UPDATE job_definition SET next_fire_time = ?, last_fire_time = ?, updated_at = ?, version = version + 1 WHERE id = ? AND next_fire_time = ?',
      [Number(d.next_fire_time) + 60000, Number(d.next_fire_time), now, d.id, Number(d.next_fire_time)],
    );
  }
  const t2 = performance.now();
  const rows = due.map((d) => {
    const id = randomUUID();
    return [
      id,
      ns,
      'tickwheel',
      id,
      d.id,
      d.code,
      d.handler,
      Number(d.next_fire_time),
      0,
      1,
      'SCHEDULE',
      'PENDING',
      1,
      1,
      1000,
      'FIXED',
      60000,
      'ROUND_ROBIN',
      0,
      '{}',
      id.replace(/-/g, ''),
      now,
      now,
      now,
    ];
  });
  if (rows.length) await conn.query(`INSERT IGNORE INTO job_instance (${INSTANCE_COLUMNS.join(',')}) VALUES ?`, [rows]);
  const t3 = performance.now();
  await conn.commit();
  const t4 = performance.now();
  if (rows.length) await conn.query('SELECT * FROM job_instance WHERE id IN (?)', [rows.map((r) => r[0])]);
  const t5 = performance.now();
  return {
    rows: due.length,
    select: t1 - t0,
    updates: t2 - t1,
    insert: t3 - t2,
    commit: t4 - t3,
    reread: t5 - t4,
    total: t5 - t0,
  };
}

/**
 * Times the product's page SQL with bare mysql2 for each page size (median of `reps`), then deletes
 * the scratch rows. Fire times are in 1970, so no scheduler or reconciler of another namespace sees them.
 * @param {import('mysql2/promise').Pool} pool
 * @param {number[]} sizes page sizes (e.g. 167 and 500)
 * @param {number} [reps]
 * @returns {Promise<Array<{size: number, totalMs: number, updatesMs: number, perRowUpdateMs: number, selectMs: number, insertMs: number, commitMs: number, rereadMs: number}>>}
 */
export async function measureDbFloor(pool, sizes, reps = 5) {
  const ns = `bench-floor-${randomUUID().slice(0, 8)}`;
  const maxSize = Math.max(...sizes);
  await registerJobs(pool, ns, maxSize);
  const conn = await pool.getConnection();
  const out = [];
  try {
    await conn.query('UPDATE job_definition SET enabled = 1 WHERE namespace = ?', [ns]);
    let fireTime = 1000;
    for (const size of sizes) {
      const runs = [];
      for (let r = 0; r < reps; r++) {
        fireTime += 60000;
        await conn.query('UPDATE job_definition SET next_fire_time = ? WHERE namespace = ?', [fireTime, ns]);
        runs.push(await onePage(conn, ns, size, fireTime));
      }
      const med = (k) => distribution(runs.map((x) => x[k])).p50;
      out.push({
        size,
        totalMs: med('total'),
        updatesMs: med('updates'),
        perRowUpdateMs: med('updates') / size,
        selectMs: med('select'),
        insertMs: med('insert'),
        commitMs: med('commit'),
        rereadMs: med('reread'),
      });
    }
  } finally {
    conn.release();
    await pool.query('DELETE FROM job_instance WHERE status = ? AND fire_time < ? AND namespace = ?', [
      'PENDING',
      10_000_000,
      ns,
    ]);
    await pool.query('DELETE FROM job_definition WHERE namespace = ?', [ns]);
  }
  return out;
}
