import { clockAt } from '../../../test/fakes/fake-clock.js';
import type { AppConfig } from '../../config/index.js';
import type { ExecutorNode } from '../metadata/index.js';
import { SEAT_CACHE_MS, WorkerNodes } from './worker-nodes.js';

/** WorkerNodes over stub stores: `rows` is the executor_node table, `finds` counts its reads. */
function nodes(now: () => number) {
  const rows = new Map<string, ExecutorNode>();
  let finds = 0;
  const table = {
    find: async (id: string) => (finds++, rows.get(id) ?? null),
    touch: async (id: string, at: number) => void Object.assign(rows.get(id) ?? {}, { lastSeenAt: at }),
    markStopped: async (id: string, at: number) => void Object.assign(rows.get(id) ?? {}, { stoppedAt: at }),
    tryInsert: async () => true,
  };
  const none = async () => [];
  const w = new WorkerNodes(
    table,
    { findOnNode: none, countOnNode: async () => 0 },
    { heartbeat: async () => undefined, removeNode: async () => undefined },
    { invalidate: () => undefined, liveNodes: none },
    { drainNode: none },
    { requeue: async () => ({ routed: 0, failed: 0 }) },
    { nodeOfflineAfterMs: 3_000, heartbeatIntervalMs: 500 } as AppConfig,
    clockAt(now),
  );
  const add = (nodeId: string, appId: string) =>
    rows.set(nodeId, {
      nodeId,
      appId,
      capacity: 4,
      handlers: ['h'],
      lastSeenAt: now(),
      stoppedAt: null,
    } as ExecutorNode);
  return { w, rows, add, finds: () => finds };
}

describe('WorkerNodes.seat (docs/workers.md "Routes")', () => {
  it('reads a live node once per SEAT_CACHE_MS; a deregistration through this process is seen at once', async () => {
    let t = 1_000_000;
    const n = nodes(() => t);
    n.add('w-a-1', 'a');
    await n.w.seat('a', 'w-a-1');
    await n.w.seat('a', 'w-a-1');
    expect(n.finds()).toBe(1);
    await expect(n.w.seat('b', 'w-a-1')).rejects.toThrow(/worker node/); // another app's: read, not found
    t += SEAT_CACHE_MS;
    await n.w.seat('a', 'w-a-1');
    expect(n.finds()).toBe(3);
    await n.w.deregister('a', 'w-a-1');
    await expect(n.w.seat('a', 'w-a-1')).rejects.toThrow(/worker node/);
  });

  it('does not take a cached seat past its expiry: the row is read again and a silent node is gone', async () => {
    let t = 1_000_000;
    const n = nodes(() => t);
    n.add('w-a-2', 'a');
    await n.w.seat('a', 'w-a-2');
    t += 3_001; // silent past nodeOfflineAfterMs
    await expect(n.w.seat('a', 'w-a-2')).rejects.toThrow(/worker node/);
    expect(n.finds()).toBe(2);
    // a heartbeat through another api process: the row is newer than the cached one, and read again
    n.rows.get('w-a-2')!.lastSeenAt = t;
    await expect(n.w.seat('a', 'w-a-2')).resolves.toMatchObject({ nodeId: 'w-a-2' });
  });
});
