// Turns the task rows read back from MariaDB into the dispatch benchmark's figures.
import { distribution } from './stats.mjs';

/**
 * Figures of one case.
 * - tasksPerSec: n / (last finished_at of the measured tasks − the first submit), the rows' own clock;
 * - latency (submit to start) = started_at − created_at per task (created_at is stamped by the API
 *   when it builds the row, before the INSERT; started_at by the executor at its claim);
 *   split into dispatch (dispatched_at − created_at: API insert + route + mark) and queue
 *   (started_at − dispatched_at: waiting on the node's ready list + the claim);
 * - lost: requested ids with no row, or whose row is not SUCCESS; doubled: an id with more than one row,
 *   or a row with more than one job_attempt (it ran twice) or attempt > 1.
 * @param {{rows: Array<Record<string, any>>, requestIds: string[], t0: number}} input
 *   rows: readTasks() output (may include the warm-up tasks: only `requestIds` are counted)
 * @returns {Record<string, any>}
 */
export function analyzeTasks({ rows, requestIds, t0 }) {
  const wanted = new Set(requestIds);
  const byId = new Map();
  let doubledRows = 0;
  for (const r of rows) {
    if (!wanted.has(r.requestId)) continue;
    if (byId.has(r.requestId)) doubledRows++;
    else byId.set(r.requestId, r);
  }
  const statuses = {};
  const perNode = {};
  let missing = 0;
  let notSuccess = 0;
  let ranTwice = 0;
  let lastFinish = -Infinity;
  const latency = [];
  const dispatch = [];
  const queue = [];
  const run = [];
  for (const id of requestIds) {
    const r = byId.get(id);
    if (!r) {
      missing++;
      continue;
    }
    statuses[r.status] = (statuses[r.status] ?? 0) + 1;
    if (r.status !== 'SUCCESS') notSuccess++;
    if (r.attempts > 1 || r.attempt > 1) ranTwice++;
    if (r.nodeId) perNode[r.nodeId] = (perNode[r.nodeId] ?? 0) + 1;
    if (r.finishedAt !== null) lastFinish = Math.max(lastFinish, r.finishedAt);
    if (r.startedAt !== null) {
      latency.push(r.startedAt - r.createdAt);
      if (r.dispatchedAt !== null) {
        dispatch.push(r.dispatchedAt - r.createdAt);
        queue.push(r.startedAt - r.dispatchedAt);
      }
      if (r.finishedAt !== null) run.push(r.finishedAt - r.startedAt);
    }
  }
  const firstCreated = Math.min(...[...byId.values()].map((r) => r.createdAt));
  const spanMs = lastFinish - t0;
  return {
    tasks: requestIds.length,
    rows: byId.size,
    statuses,
    missing,
    notSuccess,
    lost: missing + notSuccess,
    doubled: doubledRows + ranTwice,
    ranTwice,
    lastFinish,
    firstCreated,
    spanMs,
    tasksPerSec: Number.isFinite(spanMs) && spanMs > 0 ? requestIds.length / (spanMs / 1000) : NaN,
    latency: distribution(latency),
    dispatch: distribution(dispatch),
    queue: distribution(queue),
    run: distribution(run),
    perNode,
  };
}

/**
 * SQL statements per task by shape, between two snapshot sets of bench/lib/sql-trace.mjs (one per
 * process; the processes' counts are summed), most frequent first.
 * @param {Array<{shapes: Record<string, {calls: number, ms: number}>}|null>} before
 * @param {Array<{shapes: Record<string, {calls: number, ms: number}>}|null>} after
 * @param {number} tasks
 * @returns {{perTask: number, shapes: Array<{shape: string, calls: number, perTask: number, avgMs: number}>}|null}
 */
export function diffSqlTraces(before, after, tasks) {
  if (after.some((a) => !a) || before.some((b) => !b)) return null;
  const sum = new Map();
  after.forEach((a, i) => {
    for (const [shape, s] of Object.entries(a.shapes)) {
      const b = before[i].shapes[shape] ?? { calls: 0, ms: 0 };
      const cur = sum.get(shape) ?? { calls: 0, ms: 0 };
      cur.calls += s.calls - b.calls;
      cur.ms += s.ms - b.ms;
      sum.set(shape, cur);
    }
  });
  const shapes = [...sum]
    .filter(([, s]) => s.calls > 0)
    .map(([shape, s]) => ({ shape, calls: s.calls, perTask: s.calls / tasks, avgMs: s.ms / s.calls }))
    .sort((a, b) => b.calls - a.calls);
  return { perTask: shapes.reduce((t, s) => t + s.perTask, 0), shapes };
}
