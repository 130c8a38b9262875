import { TickwheelClient } from '../../src/client/tickwheel-client.js';
import { expectProblem } from '../utils/tenancy.js';
import { createJob, triggerNow } from '../utils/jobs.js';
import { signedClient, standaloneEnv, startNode, TestNode } from '../utils/test-node.js';

interface Instance {
  instanceId: string;
  fireTime: string;
  shardIndex: number;
}
interface InstancePage {
  total: number;
  items: Instance[];
  nextCursor: string | null;
}

/**
 * Every list answers `{total, items}` (docs/api.md "Lists"); a job's instances and the audit log page
 * by an opaque keyset cursor too. Instances of one fire share a fireTime (one per shard), so a page boundary
 * inside one fire proves the tie-break.
 */
describe('lists: {total, items} and cursors (standalone)', () => {
  let node: TestNode;
  let client: TickwheelClient;

  beforeAll(async () => {
    node = await startNode(standaloneEnv());
    client = await signedClient(node);
  }, 30_000);

  afterAll(async () => {
    await node?.close();
  });

  it("walks a job's instances by cursor: every instance once, newest fire first, then the shard", async () => {
    await createJob(client, { code: 'paged', routingStrategy: 'SHARDING_BROADCAST', shardTotal: 3 });
    await triggerNow(client, 'paged', 3);

    const all = (await client.request<InstancePage>('GET', '/api/jobs/paged/instances')).body;
    expect(all).toMatchObject({ total: 9, nextCursor: null });
    expect(all.items).toHaveLength(9);
    const keys = all.items.map((i) => [Date.parse(i.fireTime), i.shardIndex]);
    const sorted = [...keys].sort((x, y) => y[0] - x[0] || y[1] - x[1]);
    expect(keys).toEqual(sorted);

    const walked: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const q: string = cursor === null ? '' : `&cursor=${encodeURIComponent(cursor)}`;
      const res = await client.request<InstancePage>('GET', `/api/jobs/paged/instances?limit=2${q}`);
      expect(res.status).toBe(200);
      expect(res.body.total).toBe(9);
      walked.push(...res.body.items.map((i) => i.instanceId));
      cursor = res.body.nextCursor;
      pages++;
    } while (cursor !== null);
    expect(pages).toBe(5);
    expect(walked).toEqual(all.items.map((i) => i.instanceId));

    // offset pages still work, and give a cursor to go on from
    const second = (await client.request<InstancePage>('GET', '/api/jobs/paged/instances?offset=2&limit=2')).body;
    expect(second.items.map((i) => i.instanceId)).toEqual(walked.slice(2, 4));
    const third = (
      await client.request<InstancePage>(`GET`, `/api/jobs/paged/instances?limit=2&cursor=${second.nextCursor}`)
    ).body;
    expect(third.items.map((i) => i.instanceId)).toEqual(walked.slice(4, 6));
  }, 60_000);

  it('refuses a cursor the list did not give, and a cursor with an offset, naming cursor', async () => {
    await createJob(client, { code: 'cursors' });
    await triggerNow(client, 'cursors', 2);
    const first = (await client.request<InstancePage>('GET', '/api/jobs/cursors/instances?limit=1')).body;
    expect(first.nextCursor).toEqual(expect.any(String));
    const foreign = Buffer.from('a:1:x', 'utf8').toString('base64url'); // an audit-shaped cursor
    const forged = Buffer.from('i:1:not-a-shard', 'utf8').toString('base64url');
    for (const bad of ['nope!', foreign, forged, 'x'.repeat(201), '']) {
      const res = await client.request('GET', `/api/jobs/cursors/instances?cursor=${encodeURIComponent(bad)}`);
      expectProblem(res, 400, { field: 'cursor' });
    }
    expectProblem(await client.request('GET', `/api/jobs/cursors/instances?cursor=${first.nextCursor}&offset=1`), 400, {
      field: 'cursor',
    });
  }, 30_000);

  it('answers nodes and callback registrations as {total, items}', async () => {
    const nodes = (
      await client.request<{ total: number; items: Array<{ nodeId: string }> }>('GET', '/api/nodes?handler=noop')
    ).body;
    expect(nodes.total).toBe(nodes.items.length);
    expect(nodes.total).toBeGreaterThanOrEqual(1);
    expect((await client.request('GET', '/api/callbacks')).body).toEqual({ total: 0, items: [] });
  });
});
