// Lateness of delayed API tasks from their rows (bench/delayed-bench.mjs): how long after its due time each
// task's handler started, and for a burst how much of that the executors' slots explain.
import { distribution } from './stats.mjs';

/**
 * Lateness figures of the tasks in `requestIds` (the first row of each; rows of other ids are skipped).
 * - lateness = started_at − due_at (both stamped by the product: due_at when the API built the row, started_at
 *   at the executor's claim, just before the handler starts), ms;
 * - vsIntended = started_at − the due time the bench meant (`intended`, epoch ms, like BullMQ's data.due): adds
 *   the gap between the bench computing delayMs and the API reading its clock;
 * - dueSkew = due_at − intended.
 * @param {Array<{requestId: string, startedAt: number|null, dueAt: number}>} rows readTasks() output
 * @param {string[]} requestIds
 * @param {Map<string, number>} [intended] requestId → the meant due time
 * @returns {{lateness: ReturnType<typeof distribution>, vsIntended: ReturnType<typeof distribution>|null,
 *   dueSkew: ReturnType<typeof distribution>|null, distinctDue: number, started: Array<{startedAt: number, dueAt: number}>}}
 *   `started`: the started tasks in start order
 */
export function latenessOf(rows, requestIds, intended) {
  const wanted = new Set(requestIds);
  const seen = new Set();
  const started = [];
  const dues = new Set();
  const vsIntended = [];
  const dueSkew = [];
  for (const r of rows) {
    if (!wanted.has(r.requestId) || seen.has(r.requestId)) continue;
    seen.add(r.requestId);
    dues.add(r.dueAt);
    const meant = intended?.get(r.requestId);
    if (meant !== undefined) dueSkew.push(r.dueAt - meant);
    if (r.startedAt === null) continue;
    started.push({ startedAt: r.startedAt, dueAt: r.dueAt });
    if (meant !== undefined) vsIntended.push(r.startedAt - meant);
  }
  started.sort((a, b) => a.startedAt - b.startedAt);
  return {
    lateness: distribution(started.map((s) => s.startedAt - s.dueAt)),
    vsIntended: intended ? distribution(vsIntended) : null,
    dueSkew: intended ? distribution(dueSkew) : null,
    distinctDue: dues.size,
    started,
  };
}

/**
 * The executor-capacity part of a burst's lateness. With `slots` handler slots in all and a handler that takes
 * `handlerMs`, the k-th task to start (0-based, in start order) cannot start before due + floor(k / slots) ·
 * handlerMs; `beyond` is each task's lateness minus that bound (what the product adds on top of capacity).
 * @param {Array<{startedAt: number, dueAt: number}>} started in start order (latenessOf().started)
 * @param {number} slots executors × EXECUTOR_CONCURRENCY
 * @param {number} handlerMs
 * @returns {{beyond: ReturnType<typeof distribution>, boundMaxMs: number}} boundMaxMs: the last task's bound
 */
export function beyondCapacity(started, slots, handlerMs) {
  const bound = (k) => Math.floor(k / slots) * handlerMs;
  return {
    beyond: distribution(started.map((s, k) => s.startedAt - s.dueAt - bound(k))),
    boundMaxMs: started.length ? bound(started.length - 1) : 0,
  };
}

/**
 * Lateness p50 and max per second of due time, counted from `t0` (epoch ms): flat when the product keeps up, a
 * ramp when tasks come due faster than they run (a backlog), a step when something stalled.
 * @param {Array<{startedAt: number, dueAt: number}>} started
 * @param {number} t0
 * @returns {Array<{second: number, n: number, p50: number, max: number}>}
 */
export function latenessBySecond(started, t0) {
  const buckets = new Map();
  for (const s of started) {
    const k = Math.floor((s.dueAt - t0) / 1000);
    if (!buckets.has(k)) buckets.set(k, []);
    buckets.get(k).push(s.startedAt - s.dueAt);
  }
  return [...buckets.keys()]
    .sort((a, b) => a - b)
    .map((second) => {
      const d = distribution(buckets.get(second));
      return { second, n: d.n, p50: d.p50, max: d.max };
    });
}
