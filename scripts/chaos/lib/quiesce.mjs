// The end of a run: stop the schedules once the leader has written every fire due so far, then wait for the
// namespace's rows to settle. Shared by the chaos check and the fault tier's failover tests (test/fault).
import { leaderPid } from './cluster.mjs';
import { waitFor } from './run-util.mjs';
import { pauseJobs } from './workload.mjs';
import { FINAL } from './verdict.mjs';

/**
 * Waits for a leader among `schedulers`, then until no enabled job of `namespace` is due (every fire due so far
 * has its row), then pauses every job of `jobs`.
 * @returns {Promise<{stopAt: number, pausedAt: Map<string, number>}>} fires up to `stopAt` (epoch ms) are expected
 */
export async function stopSchedules({ db, redis, namespace, schedulers, client, jobs }) {
  await waitFor(
    'a leader',
    async () => {
      const pid = await leaderPid(redis, namespace);
      return schedulers.some((s) => s.pid !== null && s.pid === pid);
    },
    30_000,
  );
  let stopAt = 0;
  await waitFor(
    'the leader to catch up with the schedule',
    async () => {
      const now = Date.now();
      const [[r]] = await db.query(
        'SELECT COUNT(*) AS c FROM job_definition WHERE namespace = ? AND enabled = 1 AND next_fire_time <= ?',
        [namespace, now],
      );
      stopAt = now;
      return Number(r.c) === 0;
    },
    60_000,
    100,
  );
  const pausedAt = await pauseJobs(client, jobs);
  return { stopAt, pausedAt };
}

/** Waits (at most `timeoutMs`) until `sql` with `params` counts no row (`c`); true when it got there. */
export function noneLeft(db, what, sql, params, timeoutMs) {
  return waitFor(
    what,
    async () => {
      const [[r]] = await db.query(sql, params);
      return Number(r.c) === 0;
    },
    timeoutMs,
    250,
  ).then(
    () => true,
    () => false,
  );
}

/** The query and parameters that count the instances of `namespace` not in a final state, for {@link noneLeft}. */
export function unfinished(namespace) {
  return [
    `SELECT COUNT(*) AS c FROM job_instance WHERE namespace = ? AND status NOT IN (${[...FINAL].map(() => '?').join(',')})`,
    [namespace, ...FINAL],
  ];
}
