import { Redis } from 'ioredis';
import { RedisKeys } from '../../src/modules/coordination/index.js';
import { LeaderElectionService, TriggerService } from '../../src/modules/trigger/index.js';
import {
  clusterEnv,
  REDIS_URL,
  signedClient,
  startNode,
  TestNode,
  uniqueNamespace,
  waitFor,
} from '../utils/test-node.js';
import { sleep } from '../utils/async.js';
import { createJob } from '../utils/jobs.js';

const leaders = (nodes: TestNode[]) => nodes.filter((n) => n.app.get(LeaderElectionService).isLeader);

describe('scheduler leadership (Redis lock) and idempotent firing', () => {
  it('should elect exactly one leader and hand over when it stops', async () => {
    const ns = uniqueNamespace('e2e-leader');
    const nodes = [
      await startNode(clusterEnv(ns, { ROLES: 'scheduler' })),
      await startNode(clusterEnv(ns, { ROLES: 'scheduler' })),
    ];
    const redis = new Redis(REDIS_URL);
    try {
      await waitFor('a leader', async () => leaders(nodes).length === 1, 30_000);
      await sleep(1500); // time passes on purpose: several renewal rounds, still one leader
      expect(leaders(nodes)).toHaveLength(1);
      const [leader] = leaders(nodes);
      const owner = leader.app.get(LeaderElectionService).owner;
      const lock = new RedisKeys(ns).lock('leader');
      expect(await redis.get(lock)).toBe(owner);
      const standby = nodes.find((n) => n !== leader) as TestNode;
      await leader.close();
      nodes.splice(nodes.indexOf(leader), 1);
      const closedAt = Date.now();
      // Released on the way out, not left to expire (this is what makes the hand-over prompt) ...
      expect(await redis.get(lock)).not.toBe(owner);
      await waitFor(
        'the standby to take over',
        async () => standby.app.get(LeaderElectionService).isLeader,
        30_000,
        20,
      );
      // ... and taken within one LEADER_LEASE_MS (3 s in tests) of the leader stopping; the standby campaigns every
      // third of it. Timed from the end of close(), not its start: a loaded machine can spend seconds closing the
      // rest of the app, which used to eat the 0.5 s of slack.
      expect(Date.now() - closedAt).toBeLessThan(3000);
      expect(await redis.get(lock)).toBe(standby.app.get(LeaderElectionService).owner);
    } finally {
      for (const n of nodes) await n.close();
      redis.disconnect();
    }
  }, 60_000);

  it('should create one instance per fire when two schedulers fire the same due jobs at once', async () => {
    const ns = uniqueNamespace('e2e-double');
    const a = await startNode(clusterEnv(ns, { ROLES: 'api' }));
    const b = await startNode(clusterEnv(ns, { ROLES: 'api' }));
    try {
      const client = await signedClient(a);
      const codes = Array.from({ length: 20 }, (_, i) => `rate-${i}`);
      for (const code of codes) {
        await createJob(client, {
          code,
          handler: 'nobody-runs-this',
          triggerType: 'FIXED_RATE',
          triggerExpr: '60000',
        });
      }
      for (let round = 0; round < 3; round++) {
        await a.ds.query('UPDATE job_definition SET next_fire_time = ? WHERE namespace = ?', [
          Date.now() - 1000 - round,
          ns,
        ]);
        const created = await Promise.all([a.app.get(TriggerService).firePass(), b.app.get(TriggerService).firePass()]);
        expect(created[0] + created[1]).toBe(codes.length);
      }
      const rows: Array<{ c: string | number; d: string | number }> = await a.ds.query(
        'SELECT COUNT(*) AS c, COUNT(DISTINCT job_id, fire_time) AS d FROM job_instance WHERE namespace = ?',
        [ns],
      );
      expect(Number(rows[0].c)).toBe(codes.length * 3);
      expect(Number(rows[0].d)).toBe(codes.length * 3);
    } finally {
      await a.close();
      await b.close();
    }
  }, 30_000);
});
