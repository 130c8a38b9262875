import { clockAt } from '../../../test/fakes/fake-clock.js';
import type { ClaimedItem, NodeQueuePort } from '../coordination/index.js';
import type { RemoteAttempts } from '../execution/index.js';
import type { WorkerAttempt } from '../handler/index.js';
import type { ExecutorNode } from '../metadata/index.js';
import { CLAIM_WAITS_PER_APP, RUNNING_PER_CAPACITY, WorkerClaims } from './worker-claims.js';
import type { WorkerNode, WorkerNodes } from './worker-nodes.js';

/** Queues whose waiting claims hang until released; records each claim's wait. */
function queues() {
  const waits: number[] = [];
  const release: Array<() => void> = [];
  const port = {
    claimMany: (_node: string, _max: number, waitMs: number): Promise<ClaimedItem[]> => {
      waits.push(waitMs);
      if (waitMs === 0) return Promise.resolve([]);
      return new Promise((resolve) => release.push(() => resolve([])));
    },
    ackMany: async () => undefined,
  };
  return { port: port as unknown as Pick<NodeQueuePort, 'claimMany' | 'ackMany'>, waits, release };
}

const node = (appId: string, capacity = 4): WorkerNode => ({
  appId,
  nodeId: `w-${appId}-1`,
  row: { capacity } as ExecutorNode,
});

describe('WorkerClaims', () => {
  const attempts = { claim: async (): Promise<WorkerAttempt[]> => [] } as Pick<RemoteAttempts, 'claim'>;

  it('should let at most CLAIM_WAITS_PER_APP claims of an app wait on Redis; the next waits on a timer', async () => {
    const q = queues();
    const timers: Array<() => void> = [];
    const clock = {
      ...clockAt(() => 0),
      schedule: (_ms: number, fn: () => void) => (timers.push(fn), () => undefined),
    };
    const nodes = { running: async () => 0 } as Pick<WorkerNodes, 'running'>;
    const claims = new WorkerClaims(q.port, attempts, nodes, clock);
    const pending = Array.from({ length: CLAIM_WAITS_PER_APP }, () => claims.claim(node('a'), 1, 5000));
    await new Promise((r) => setImmediate(r));
    expect(q.waits).toEqual(Array(CLAIM_WAITS_PER_APP).fill(5000));
    const over = claims.claim(node('a'), 1, 5000);
    const other = claims.claim(node('b'), 1, 5000);
    await new Promise((r) => setImmediate(r));
    // app a's ninth looks once without waiting and sleeps on a timer; app b still waits on Redis
    expect(q.waits.slice(CLAIM_WAITS_PER_APP).sort()).toEqual([0, 5000]);
    expect(timers).toHaveLength(1);
    timers[0]();
    expect(await over).toEqual([]);
    q.release.forEach((r) => r());
    await Promise.all([...pending, other]);
    // the bound is given back: a new claim of app a waits on Redis again
    void claims.claim(node('a'), 1, 5000);
    await new Promise((r) => setImmediate(r));
    expect(q.waits[q.waits.length - 1]).toBe(5000);
    q.release.forEach((r) => r());
  });

  it("should not take ids off the queue when the node's RUNNING rows fill twice its capacity", async () => {
    const q = queues();
    const clock = { ...clockAt(() => 0), schedule: (_ms: number, fn: () => void) => (fn(), () => undefined) };
    const claims = new WorkerClaims(q.port, attempts, { running: async () => 2 * RUNNING_PER_CAPACITY }, clock);
    expect(await claims.claim(node('a', 2), 5, 1000)).toEqual([]);
    expect(q.waits).toEqual([]);
  });

  it('should take up to the slack left while RUNNING rows whose finish is on its way pass the capacity', async () => {
    const q = queues();
    const asked: number[] = [];
    const port = {
      ...q.port,
      claimMany: (n: string, max: number) => (asked.push(max), q.port.claimMany(n, max, 0)),
    };
    const clock = { ...clockAt(() => 0), schedule: (_ms: number, fn: () => void) => (fn(), () => undefined) };
    const claims = new WorkerClaims(port, attempts, { running: async () => 3 }, clock);
    await claims.claim(node('a', 2), 5, 0);
    expect(asked).toEqual([2 * RUNNING_PER_CAPACITY - 3]);
  });
});
