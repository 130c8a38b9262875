import { LeaderElectionService, TriggerService } from '../../src/modules/trigger/index.js';
import { clusterEnv, signedClient, startNode, TestNode, uniqueNamespace, waitFor } from '../utils/test-node.js';

const leaders = (nodes: TestNode[]) => nodes.filter((n) => n.app.get(LeaderElectionService).isLeader);

describe('scheduler leadership (Redis lock) and idempotent firing', () => {
  it('should elect exactly one leader and hand over when it stops', async () => {
    const ns = uniqueNamespace('e2e-leader');
    const nodes = [await startNode(clusterEnv(ns, { ROLES: 'scheduler' })), await startNode(clusterEnv(ns, { ROLES: 'scheduler' }))];
    try {
      await waitFor('a leader', async () => leaders(nodes).length === 1, 5000);
      await new Promise((r) => setTimeout(r, 1500)); // several renewal rounds
      expect(leaders(nodes)).toHaveLength(1);
      const [leader] = leaders(nodes);
      const standby = nodes.find((n) => n !== leader) as TestNode;
      const t0 = Date.now();
      await leader.close();
      nodes.splice(nodes.indexOf(leader), 1);
      await waitFor('the standby to take over', async () => standby.app.get(LeaderElectionService).isLeader, 5000, 20);
      expect(Date.now() - t0).toBeLessThan(3000 + 500); // within one LEADER_LEASE_MS (3 s in tests)
    } finally {
      for (const n of nodes) await n.close();
    }
  }, 30_000);

  it('should create one instance per fire when two schedulers fire the same due jobs at once', async () => {
    const ns = uniqueNamespace('e2e-double');
    const a = await startNode(clusterEnv(ns, { ROLES: 'api' }));
    const b = await startNode(clusterEnv(ns, { ROLES: 'api' }));
    try {
      const client = await signedClient(a);
      const codes = Array.from({ length: 20 }, (_, i) => `rate-${i}`);
      for (const code of codes) {
        const res = await client.request('POST', '/api/jobs', { code, handler: 'nobody-runs-this', triggerType: 'FIXED_RATE', triggerExpr: '60000' });
        expect(res.status).toBe(201);
      }
      for (let round = 0; round < 3; round++) {
        await a.ds.query('UPDATE job_definition SET next_fire_time = ? WHERE namespace = ?', [Date.now() - 1000 - round, ns]);
        const created = await Promise.all([a.app.get(TriggerService).firePass(), b.app.get(TriggerService).firePass()]);
        expect(created[0] + created[1]).toBe(codes.length);
      }
      const rows: Array<{ c: string | number; d: string | number }> = await a.ds.query(
        'SELECT COUNT(*) AS c, COUNT(DISTINCT job_id, fire_time) AS d FROM job_instance WHERE namespace = ?', [ns]);
      expect(Number(rows[0].c)).toBe(codes.length * 3);
      expect(Number(rows[0].d)).toBe(codes.length * 3);
    } finally {
      await a.close();
      await b.close();
    }
  }, 30_000);
});
