// MariaDB side of the trigger benchmark: register job definitions in bulk, enable them with
// evenly spread next fire times, probe when each fire second is fully committed, read back, clean up.
import { randomUUID } from 'node:crypto';
import { benchCode, scheduleOf } from './mix.mjs';

const DEF_COLUMNS = [
  'id',
  'namespace',
  'code',
  'description',
  'handler',
  'trigger_type',
  'trigger_expr',
  'time_zone',
  'params',
  'routing_strategy',
  'routing_key',
  'shard_total',
  'shard_params',
  'misfire_policy',
  'overlap_policy',
  'max_concurrency',
  'timeout_ms',
  'retry_max',
  'retry_backoff_ms',
  'retry_backoff_kind',
  'enabled',
  'schedule_state',
  'schedule_error',
  'next_fire_time',
  'last_fire_time',
  'version',
  'created_at',
  'updated_at',
  'created_by',
  'updated_by',
];

/**
 * Handler of the bench jobs. No real executor serves it: either nobody does (instances stay PENDING,
 * only the ledger is measured) or the bench's stand-in node (bench/lib/consumer.mjs) takes the ids.
 */
export const BENCH_HANDLER = 'bench.noop';

/**
 * Inserts `n` DISABLED cron job definitions of `mix` (bench/lib/mix.mjs; `uniform`: `S * * * * *` with
 * S = i % 60) in `namespace`, in multi-row INSERTs of `chunk` rows, two at a time. Codes are `bench-0000000`…
 * (zero-padded), the description is the job's grid `<period ms> <offset ms>` (read by enableByGrid).
 * They are enabled later ({@link enableJobs}, enableByGrid), so registering never counts as the scheduler's time.
 * @param {import('mysql2/promise').Pool} pool
 * @param {string} namespace
 * @param {number} n
 * @param {'uniform'|'big'} [mix]
 * @returns {Promise<Map<string, {period: number, offset: number}>>} job id -> the grid it fires on
 */
export async function registerJobs(pool, namespace, n, mix = 'uniform', chunk = 5000) {
  const grids = new Map();
  const now = Date.now();
  const insertChunk = async (i0) => {
    const rows = [];
    for (let i = i0; i < Math.min(n, i0 + chunk); i++) {
      const id = randomUUID();
      const { expr, period, offset } = scheduleOf(mix, i, n);
      grids.set(id, { period, offset });
      rows.push([
        id,
        namespace,
        benchCode(i),
        `${period} ${offset}`,
        BENCH_HANDLER,
        'CRON',
        expr,
        'UTC',
        null,
        'ROUND_ROBIN',
        null,
        1,
        null,
        'FIRE_ONCE_NOW',
        'ALLOW',
        0,
        60000,
        0,
        1000,
        'FIXED',
        0,
        'OK',
        null,
        null,
        null,
        1,
        now,
        now,
        'bench',
        null,
      ]);
    }
    await pool.query(`INSERT INTO job_definition (${DEF_COLUMNS.join(',')}) VALUES ?`, [rows]);
  };
  const starts = [];
  for (let i0 = 0; i0 < n; i0 += chunk) starts.push(i0);
  const lanes = [0, 1].map(async (lane) => {
    for (let k = lane; k < starts.length; k += 2) await insertChunk(starts[k]);
  });
  await Promise.all(lanes);
  return grids;
}

/**
 * Enables every job of `namespace` with next_fire_time = the first instant strictly after `base`
 * whose second-of-minute is the job's S (parsed from trigger_expr), in one UPDATE.
 * @param {import('mysql2/promise').Pool} pool
 * @param {string} namespace
 * @param {number} base epoch ms
 * @returns {Promise<number>} rows enabled
 */
export async function enableJobs(pool, namespace, base) {
  const minute = base - (base % 60000);
  const [res] = await pool.query(
    `UPDATE job_definition
        SET enabled = 1,
            next_fire_time = ? + CAST(SUBSTRING_INDEX(trigger_expr, ' ', 1) AS UNSIGNED) * 1000
                             + IF(? + CAST(SUBSTRING_INDEX(trigger_expr, ' ', 1) AS UNSIGNED) * 1000 <= ?, 60000, 0)
      WHERE namespace = ?`,
    [minute, minute, base, namespace],
  );
  return res.affectedRows;
}

/**
 * Polls, every `everyMs`, which fire seconds have all their rows committed (visible to another
 * connection). Uses only the (status, fire_time) index (an index-only COUNT), so it costs little.
 * Resolution = everyMs + one query.
 */
export class SlotProbe {
  /**
   * @param {import('mysql2/promise').Pool} pool
   * @param {Map<number, number>} slots slot -> expected rows
   * @param {number} everyMs
   */
  constructor(pool, slots, everyMs) {
    this.pool = pool;
    this.pending = new Map(slots);
    this.doneAt = new Map();
    this.everyMs = everyMs;
    this.queries = 0;
    this.stopped = false;
  }

  /** Starts polling in the background until {@link stop} or every slot is done. */
  start() {
    this.loop = (async () => {
      while (!this.stopped && this.pending.size > 0 && this.everyMs > 0) {
        const now = Date.now();
        const due = [...this.pending.keys()].filter((t) => t <= now).slice(0, 50);
        if (due.length > 0) {
          const [rows] = await this.pool.query(
            `SELECT fire_time AS t, COUNT(*) AS c FROM job_instance WHERE status IN ('PENDING', 'DISPATCHED') AND fire_time IN (?) GROUP BY fire_time`,
            [due],
          );
          this.queries++;
          const seen = Date.now();
          for (const r of rows) {
            const t = Number(r.t);
            if (Number(r.c) >= (this.pending.get(t) ?? Infinity)) {
              this.doneAt.set(t, seen);
              this.pending.delete(t);
            }
          }
        }
        await new Promise((r) => setTimeout(r, this.everyMs));
      }
    })();
  }

  /** Stops polling and waits for the last query. */
  async stop() {
    this.stopped = true;
    await this.loop;
  }
}

/**
 * Instances of `namespace` with fire_time in [start, end) that no executor claimed (PENDING, or
 * DISPATCHED to the stand-in consumer), via the (status, fire_time) index; `notPending` counts the rest.
 * @returns {Promise<{rows: Array<{id: string, job_id: string, fire_time: number, created_at: number, trigger_source: string}>, notPending: number}>}
 */
export async function readInstances(pool, namespace, start, end) {
  const [rows] = await pool.query(
    `SELECT id, job_id, fire_time, created_at, trigger_source FROM job_instance
      WHERE status IN ('PENDING', 'DISPATCHED') AND fire_time >= ? AND fire_time < ? AND namespace = ?`,
    [start, end, namespace],
  );
  const [[other]] = await pool.query(
    `SELECT COUNT(*) AS c FROM job_instance WHERE status NOT IN ('PENDING', 'DISPATCHED') AND fire_time >= ? AND fire_time < ? AND namespace = ?`,
    [start, end, namespace],
  );
  return {
    rows: rows.map((r) => ({ ...r, fire_time: Number(r.fire_time), created_at: Number(r.created_at) })),
    notPending: Number(other.c),
  };
}

/**
 * When the first fire of `namespace` was written (its earliest created_at) and first reached the stand-in node
 * (`arrivals`), in seconds after `spawnAt` (the scheduler's spawn); NaN when none. Reads rows fired since `since`
 * through the (status, fire_time) index.
 * @returns {Promise<{firstWrittenS: number, firstReleaseS: number}>}
 */
export async function firstFires(pool, namespace, since, spawnAt, arrivals) {
  const [[r]] = await pool.query(
    `SELECT MIN(created_at) AS c FROM job_instance
      WHERE status IN ('PENDING', 'DISPATCHED') AND fire_time >= ? AND namespace = ?`,
    [since, namespace],
  );
  let first = Infinity;
  for (const t of arrivals?.values() ?? []) if (t < first) first = t;
  return {
    firstWrittenS: r.c === null ? NaN : (Number(r.c) - spawnAt) / 1000,
    firstReleaseS: Number.isFinite(first) ? (first - spawnAt) / 1000 : NaN,
  };
}

/**
 * Deletes everything the run wrote in `namespace`: instances (by index range from `since`, in chunks,
 * then any stragglers), job definitions, and the namespace's Redis keys `{tw:<ns>}:*`.
 * @returns {Promise<{instances: number, jobs: number, keys: number}>}
 */
export async function cleanup(pool, redis, namespace, since) {
  let instances = 0;
  for (;;) {
    const [r] = await pool.query(
      `DELETE FROM job_instance WHERE status IN ('PENDING', 'DISPATCHED') AND fire_time >= ? AND namespace = ? LIMIT 20000`,
      [since, namespace],
    );
    instances += r.affectedRows;
    if (r.affectedRows < 20000) break;
  }
  const [rest] = await pool.query('DELETE FROM job_instance WHERE namespace = ?', [namespace]);
  instances += rest.affectedRows;
  let jobs = 0;
  for (;;) {
    const [r] = await pool.query('DELETE FROM job_definition WHERE namespace = ? LIMIT 20000', [namespace]);
    jobs += r.affectedRows;
    if (r.affectedRows < 20000) break;
  }
  let keys = 0;
  let cursor = '0';
  do {
    const [next, found] = await redis.scan(cursor, 'MATCH', `{tw:${namespace}}:*`, 'COUNT', 1000);
    cursor = next;
    if (found.length) keys += await redis.unlink(...found);
  } while (cursor !== '0');
  return { instances, jobs, keys };
}
