// The chaos check's judgement: reads the namespace's rows from MySQL and compares them with the schedule
// and with the side-effect log. Pure reading; nothing is changed.

export const FINAL = new Set(['SUCCESS', 'FAILED', 'TIMEOUT', 'CANCELLED']);
/** job_attempt outcomes that explain a re-run: the attempt was taken away from a node (docs/execution.md). */
export const LOST = new Set(['NODE_LOST', 'LEASE_LOST']);

/** Period in ms of the run's cron expressions (`*\/k * * * * *` or `* * * * * *`); k divides 60, so fires sit on an epoch grid. */
export function periodMs(expr) {
  const m = /^(\*|\*\/(\d+)) \* \* \* \* \*$/.exec(expr.trim());
  if (!m) throw new Error(`chaos jobs use '*/k * * * * *' expressions, got '${expr}'`);
  const k = m[2] ? Number(m[2]) : 1;
  if (60 % k !== 0) throw new Error(`period ${k} s does not divide a minute`);
  return k * 1000;
}

/**
 * Every expected fire time of a job: the grid instants after its creation up to `stopAt` (inclusive).
 * @param {number} createdAt epoch ms
 * @param {number} period ms
 * @param {number} stopAt epoch ms
 */
export function expectedFires(createdAt, period, stopAt) {
  const out = [];
  for (let t = Math.floor(createdAt / period) * period + period; t <= stopAt; t += period) out.push(t);
  return out;
}

/**
 * Judges the run. `failing` holds the request ids of the planned failures (tasks whose `http` handler is answered
 * 500, lib/workload.mjs): each must end FAILED (`failing` counts those that did), and its earlier attempts may have
 * FAILED; any other instance must end SUCCESS (`failed` counts those that did not, planned ones ending otherwise too).
 * @param {import('mysql2/promise').Pool} pool
 * @param {{namespace: string, taskIds: string[], failing: Set<string>, stopAt: number, pausedAt: Map<string, number>,
 *   log: import('./receiver.mjs').SideEffect[]}} run
 * @returns {Promise<{ok: boolean, counts: Record<string, number>, examples: string[]}>}
 */
export async function judge(pool, { namespace, taskIds, failing, stopAt, pausedAt, log }) {
  const [jobs] = await pool.query('SELECT id, code, trigger_expr, created_at FROM job_definition WHERE namespace = ?', [
    namespace,
  ]);
  const [rows] = await pool.query(
    'SELECT id, request_id, job_id, fire_time, shard_index, status, attempt, error FROM job_instance WHERE namespace = ?',
    [namespace],
  );
  const [atts] = await pool.query(
    `SELECT a.instance_id, a.attempt, a.status, a.node_id, a.fencing_token FROM job_attempt a
       JOIN job_instance i ON i.id = a.instance_id WHERE i.namespace = ?`,
    [namespace],
  );
  const c = {
    fires: 0,
    expectedFires: 0,
    tasks: 0,
    instances: rows.length,
    missing: 0,
    dup: 0,
    extra: 0,
    doubleSuccess: 0,
    unfinished: 0,
    failed: 0,
    failing: 0,
    reruns: 0,
    explained: 0,
    unexplained: 0,
    untraced: 0,
    noEffect: 0,
    effects: log.length,
  };
  const examples = [];
  const note = (s) => examples.length < 12 && examples.push(s);

  // Scheduled fires: exactly one row per expected time, none off the schedule.
  const byJob = new Map();
  for (const r of rows) {
    if (!r.job_id) continue;
    c.fires++;
    const key = `${Number(r.fire_time)}:${r.shard_index}`;
    const m = byJob.get(r.job_id) ?? new Map();
    m.set(key, (m.get(key) ?? 0) + 1);
    byJob.set(r.job_id, m);
  }
  for (const j of jobs) {
    const period = periodMs(j.trigger_expr);
    const seen = byJob.get(j.id) ?? new Map();
    const expected = expectedFires(Number(j.created_at), period, stopAt);
    c.expectedFires += expected.length;
    for (const t of expected) {
      const n = seen.get(`${t}:0`) ?? 0;
      if (n === 0) {
        c.missing++;
        note(`missing fire: job ${j.code} at ${new Date(t).toISOString()}`);
      }
    }
    const last = (pausedAt.get(j.code) ?? stopAt) + 1000;
    for (const [key, n] of seen) {
      const t = Number(key.split(':')[0]);
      if (n > 1) {
        c.dup += n - 1;
        note(`fire with ${n} instances: job ${j.code} at ${new Date(t).toISOString()}`);
      }
      if (t % period !== 0 || t <= Math.floor(Number(j.created_at) / period) * period || t > last) {
        c.extra++;
        note(`fire off the schedule: job ${j.code} at ${new Date(t).toISOString()}`);
      }
    }
  }

  // API tasks: each submitted request id has exactly one row.
  const perRequest = new Map();
  for (const r of rows) if (!r.job_id) perRequest.set(r.request_id, (perRequest.get(r.request_id) ?? 0) + 1);
  for (const id of taskIds) {
    const n = perRequest.get(id) ?? 0;
    c.tasks += n > 0 ? 1 : 0;
    if (n === 0) {
      c.missing++;
      note(`task ${id} has no row`);
    } else if (n > 1) {
      c.dup += n - 1;
      note(`task ${id} has ${n} rows`);
    }
  }

  // Per instance: final, one SUCCESS, every extra attempt or side effect explained by a lost node or lease.
  const attemptsOf = new Map();
  for (const a of atts) {
    const m = attemptsOf.get(a.instance_id) ?? new Map();
    if (m.has(a.attempt)) note(`instance ${a.instance_id} has two job_attempt rows for attempt ${a.attempt}`);
    m.set(a.attempt, a);
    attemptsOf.set(a.instance_id, m);
  }
  const effectsOf = new Map();
  for (const e of log) effectsOf.set(e.instanceId, [...(effectsOf.get(e.instanceId) ?? []), e]);
  for (const r of rows) {
    const at = attemptsOf.get(r.id) ?? new Map();
    const effects = effectsOf.get(r.id) ?? [];
    const planned = !r.job_id && failing.has(r.request_id);
    if (!FINAL.has(r.status)) {
      c.unfinished++;
      note(`instance ${r.id} (${r.request_id}) is ${r.status} at attempt ${r.attempt}`);
    } else if (planned && r.status === 'FAILED') {
      c.failing++;
    } else if (planned || r.status !== 'SUCCESS') {
      c.failed++;
      const what = planned ? 'a planned failure, ' : '';
      note(`instance ${r.id} (${r.request_id}), ${what}ended ${r.status}: ${String(r.error ?? '').slice(0, 160)}`);
    }
    const successes = [...at.values()].filter((a) => a.status === 'SUCCESS').length;
    if (successes > 1) {
      c.doubleSuccess++;
      note(`instance ${r.id} has ${successes} SUCCESS attempts`);
    }
    if (r.status === 'SUCCESS') {
      const final = at.get(r.attempt);
      if (final?.status !== 'SUCCESS') {
        c.untraced++;
        note(`instance ${r.id} is SUCCESS but its attempt ${r.attempt} is recorded as ${final?.status ?? 'nothing'}`);
      }
      if (!effects.some((e) => e.attempt === r.attempt)) {
        c.noEffect++;
        note(`instance ${r.id} is SUCCESS at attempt ${r.attempt} but its handler left no side effect for it`);
      }
    }
    if (r.attempt > 1 || effects.length > 1) {
      c.reruns++;
      const why = unexplained(r, at, effects, planned);
      if (why) {
        c.unexplained++;
        note(`re-run of instance ${r.id} (${r.request_id}) not explained: ${why}`);
      } else {
        c.explained++;
      }
    }
  }
  const ok =
    c.missing +
      c.dup +
      c.extra +
      c.doubleSuccess +
      c.unfinished +
      c.failed +
      c.unexplained +
      c.untraced +
      c.noEffect ===
    0;
  return { ok, counts: c, examples };
}

/**
 * Why the attempts and side effects of one re-run instance are not all explained, or null when they are. A planned
 * failure's earlier attempts may also have FAILED (its handler was answered 500 and the task retried).
 */
function unexplained(row, attempts, effects, planned) {
  for (let a = 1; a < row.attempt; a++) {
    const rec = attempts.get(a);
    if (!rec) return `attempt ${a} has no job_attempt row`;
    if (!LOST.has(rec.status) && !(planned && rec.status === 'FAILED'))
      return `attempt ${a} ended ${rec.status}, not NODE_LOST/LEASE_LOST`;
  }
  const perAttempt = new Map();
  for (const e of effects) {
    if (!(e.attempt >= 1 && e.attempt <= row.attempt))
      return `a side effect carries attempt ${e.attempt} (instance at ${row.attempt})`;
    perAttempt.set(e.attempt, (perAttempt.get(e.attempt) ?? 0) + 1);
    const rec = attempts.get(e.attempt);
    if (rec && Number(rec.fencing_token) !== e.token)
      return `attempt ${e.attempt} ran with token ${e.token} but job_attempt says ${rec.fencing_token}`;
  }
  for (const [a, n] of perAttempt) if (n > 1) return `attempt ${a} made ${n} side effects`;
  return null;
}
