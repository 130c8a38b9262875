import { jest } from '@jest/globals';
import { InstanceIntake } from '../../src/modules/metadata/index.js';
import { TaskShape } from '../utils/task-shapes.js';
import { TestNode } from '../utils/test-node.js';
import { hookTask } from './task-batch-cases.js';

/** Rows stored per request id in the node's namespace for request ids starting with `prefix`. */
async function rowsByRequest(node: TestNode, prefix: string): Promise<Map<string, number>> {
  const rows: Array<{ request_id: string; c: string | number }> = await node.ds.query(
    'SELECT request_id, COUNT(*) AS c FROM job_instance WHERE namespace = ? AND request_id LIKE ? GROUP BY request_id',
    [node.config.namespace, `${prefix}%`],
  );
  return new Map(rows.map((r) => [r.request_id, Number(r.c)]));
}

/** Spies on the task-row writes of the node's repository (the real methods still run); `restore` undoes it. */
function spyOnTaskWrites(node: TestNode) {
  const repo = node.app.get(InstanceIntake);
  const one = jest.spyOn(repo, 'insertOrGet');
  const many = jest.spyOn(repo, 'insertOrGetMany');
  return {
    one,
    many,
    /** Group sizes of the writes so far (1 per insertOrGet). */
    groups: () => [...one.mock.calls.map(() => 1), ...many.mock.calls.map(([rows]) => rows.length)],
    restore: () => {
      one.mockRestore();
      many.mockRestore();
    },
  };
}

/**
 * Concurrent single submits (POST /api/tasks), which the API writes in groups (SubmitCoalescer), shared by
 * both shapes; `ctx()` is read when a case runs. Every case fires its submits at once. `overlapping`: the
 * shape's writes take round trips, so submits arrive while one is written and groups form (cluster); on
 * SQLite a write completes synchronously, each submit finds the app idle and is written alone, and the
 * cases about groups are left out (standalone).
 */
export function submitGroupCases(ctx: () => TaskShape, overlapping: boolean): void {
  // Correctness, not latency (bench/ measures that): the first case also pays the warm-up of 200 sockets and of the
  // in-process api and executors, which took over 30 s in a loaded CI run while 3 s here.
  const timeout = 120_000;
  const grouped = (name: string, fn: () => Promise<void>) => (overlapping ? it(name, fn, timeout) : undefined);

  it(
    'should accept 200 concurrent distinct submits, each with its own first answer, as 200 rows',
    async () => {
      const { client, api, receiver } = ctx();
      const ids = Array.from({ length: 200 }, (_, i) => `many-${i}`);
      const answers = await Promise.all(ids.map((id) => client.submitTask(hookTask(receiver, id))));
      answers.forEach((a, i) => {
        expect(a.status).toBe(202);
        expect(a.body).toEqual({ requestId: ids[i], status: 'PENDING', estimatedDelay: 0 });
        expect(a.headers.get('idempotent-replayed')).toBeNull();
      });
      const rows = await rowsByRequest(api, 'many-');
      expect(rows.size).toBe(200);
      expect([...rows.values()].every((c) => c === 1)).toBe(true);
    },
    timeout,
  );

  grouped('should write concurrent submits in groups: far fewer writes than submits, and rows for all', async () => {
    const { client, api, receiver } = ctx();
    const spy = spyOnTaskWrites(api);
    try {
      const answers = await Promise.all(
        Array.from({ length: 200 }, (_, i) => client.submitTask(hookTask(receiver, `grouped-${i}`))),
      );
      expect(answers.every((a) => a.status === 202)).toBe(true);
      const groups = spy.groups();
      expect(groups.reduce((a, b) => a + b, 0)).toBe(200);
      expect(groups.length).toBeLessThanOrEqual(100);
      expect(Math.max(...groups)).toBeGreaterThan(1);
      expect((await rowsByRequest(api, 'grouped-')).size).toBe(200);
    } finally {
      spy.restore();
    }
  });

  it(
    'should create one row for 50 concurrent identical submits: one first answer, 49 replays of it',
    async () => {
      const { client, api, receiver } = ctx();
      const answers = await Promise.all(
        Array.from({ length: 50 }, () => client.submitTask(hookTask(receiver, 'twin-1'))),
      );
      expect(answers.every((a) => a.status === 202)).toBe(true);
      // a replay answers the task as it is now (issue 26 item 9): its status may have moved on from PENDING
      const { requestId, estimatedDelay } = answers[0].body;
      expect(answers.every((a) => a.body.requestId === requestId && a.body.estimatedDelay === estimatedDelay)).toBe(
        true,
      );
      expect(answers.filter((a) => a.headers.get('idempotent-replayed') === 'true')).toHaveLength(49);
      expect([...(await rowsByRequest(api, 'twin-1')).values()]).toEqual([1]);
    },
    timeout,
  );

  it(
    'should accept one of 20 concurrent submits of one requestId with different bodies and answer the rest 409',
    async () => {
      const { client, api, receiver } = ctx();
      const answers = await Promise.all(
        Array.from({ length: 20 }, (_, i) => client.submitTask(hookTask(receiver, 'clash-1', { timeoutMs: 1000 + i }))),
      );
      const accepted = answers.filter((a) => a.status === 202);
      expect(accepted).toHaveLength(1);
      expect(accepted[0].headers.get('idempotent-replayed')).toBeNull();
      const refused = answers.filter((a) => a.status === 409);
      expect(refused).toHaveLength(19);
      for (const r of refused) {
        expect(r.headers.get('content-type')).toContain('application/problem+json');
        expect(r.body).toMatchObject({ status: 409, code: 'CONFLICT', field: 'requestId' });
      }
      expect([...(await rowsByRequest(api, 'clash-1')).values()]).toEqual([1]);
      const winner = answers.findIndex((a) => a.status === 202);
      const stored: Array<{ timeout_ms: number | string }> = await api.ds.query(
        'SELECT timeout_ms FROM job_instance WHERE namespace = ? AND request_id = ?',
        [api.config.namespace, 'clash-1'],
      );
      expect(Number(stored[0].timeout_ms)).toBe(1000 + winner);
    },
    timeout,
  );

  grouped(
    'should answer every submit of a group whose write failed with a 500 and write none of them; 202s all have rows',
    async () => {
      const { client, api, receiver } = ctx();
      const spy = spyOnTaskWrites(api);
      spy.many.mockRejectedValueOnce(new Error('injected: group write failed'));
      try {
        const ids = Array.from({ length: 50 }, (_, i) => `failgroup-${i}`);
        const answers = await Promise.all(ids.map((id) => client.submitTask(hookTask(receiver, id))));
        expect(answers.every((a) => a.status === 202 || a.status === 500)).toBe(true);
        const failed = ids.filter((_, i) => answers[i].status === 500);
        expect(failed.length).toBeGreaterThan(1);
        const rows = await rowsByRequest(api, 'failgroup-');
        for (const id of failed) expect(rows.has(id)).toBe(false);
        for (const id of ids.filter((_, i) => answers[i].status === 202)) expect(rows.get(id)).toBe(1);
        const again = await Promise.all(failed.map((id) => client.submitTask(hookTask(receiver, id))));
        expect(again.every((a) => a.status === 202 && a.headers.get('idempotent-replayed') === null)).toBe(true);
      } finally {
        spy.restore();
      }
    },
  );

  grouped(
    'should write a group again after a deadlock, and answer every submit of it 202 as its first answer',
    async () => {
      const { client, api, receiver } = ctx();
      const spy = spyOnTaskWrites(api);
      spy.many.mockRejectedValueOnce(
        Object.assign(new Error('injected: Deadlock found when trying to get lock'), { errno: 1213 }),
      );
      try {
        const ids = Array.from({ length: 50 }, (_, i) => `deadlock-${i}`);
        const answers = await Promise.all(ids.map((id) => client.submitTask(hookTask(receiver, id))));
        expect(answers.map((a) => a.status)).toEqual(ids.map(() => 202));
        expect(answers.every((a) => a.headers.get('idempotent-replayed') === null)).toBe(true);
        expect(spy.many.mock.calls.length).toBeGreaterThanOrEqual(2);
        const rows = await rowsByRequest(api, 'deadlock-');
        expect(ids.every((id) => rows.get(id) === 1)).toBe(true);
      } finally {
        spy.restore();
      }
    },
  );
}
