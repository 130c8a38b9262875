import type { ApiAnswer, FinishBody, FinishedItem } from './worker-api.js';
import { FINISHES_MAX, FinishBatcher, type FinishSender } from './finish-batcher.js';

type Item = FinishBody & { instanceId: string };

/** A sender whose calls wait until the test answers them; records each call. */
function sender() {
  const calls: Array<{ kind: 'one' | 'many'; nodeId: string; ids: string[]; answer: (a: ApiAnswer | Error) => void }> =
    [];
  const call = (kind: 'one' | 'many', nodeId: string, ids: string[]) =>
    new Promise<ApiAnswer<never>>((resolve, reject) =>
      calls.push({ kind, nodeId, ids, answer: (a) => (a instanceof Error ? reject(a) : resolve(a as never)) }),
    );
  const port: FinishSender = {
    one: (nodeId, instanceId) => call('one', nodeId, [instanceId]),
    many: (nodeId, items: Item[]) =>
      call(
        'many',
        nodeId,
        items.map((i) => i.instanceId),
      ),
  };
  return { port, calls };
}
const body = (token = 1): FinishBody => ({ fencingToken: token, outcome: 'SUCCESS', result: null });
const ok = (ids: string[]): ApiAnswer<{ items: FinishedItem[] }> => ({
  status: 200,
  body: {
    items: ids.map((instanceId) => ({ instanceId, fencingToken: 1, code: 200, status: 'SUCCESS', final: true })),
  },
});
const tick = () => new Promise((r) => setImmediate(r));

describe('FinishBatcher (docs/workers.md "finishes")', () => {
  it('sends the finishes of one turn in one call, and those ending meanwhile together in the next', async () => {
    const s = sender();
    const b = new FinishBatcher(s.port);
    const first = ['a', 'b', 'c'].map((id) => b.submit('n1', id, body()));
    await tick();
    expect(s.calls.map((c) => [c.kind, c.ids])).toEqual([['many', ['a', 'b', 'c']]]);
    const later = ['d', 'e'].map((id) => b.submit('n1', id, body()));
    await tick();
    expect(s.calls).toHaveLength(1); // one call in flight at a time
    s.calls[0].answer({
      status: 200,
      body: {
        items: [
          { instanceId: 'a', fencingToken: 1, code: 200, status: 'SUCCESS', final: true },
          { instanceId: 'b', fencingToken: 1, code: 409, detail: 'stale' },
          { instanceId: 'c', fencingToken: 1, code: 404, detail: 'gone' },
        ],
      },
    });
    expect(await Promise.all(first)).toEqual([
      { status: 200, body: { status: 'SUCCESS', final: true } },
      { status: 409, body: { detail: 'stale' } },
      { status: 404, body: { detail: 'gone' } },
    ]);
    await tick();
    expect(s.calls[1].ids).toEqual(['d', 'e']);
    s.calls[1].answer(ok(['d', 'e']));
    expect((await Promise.all(later)).map((a) => a.status)).toEqual([200, 200]);
  });

  it('sends a lone finish on the single route, splits by node and by FINISHES_MAX', async () => {
    const s = sender();
    const b = new FinishBatcher(s.port);
    const lone = b.submit('n1', 'x', body());
    await tick();
    expect(s.calls.map((c) => [c.kind, c.ids])).toEqual([['one', ['x']]]);
    s.calls[0].answer({ status: 200, body: { status: 'SUCCESS', final: true } });
    expect((await lone).status).toBe(200);
    const ids = Array.from({ length: FINISHES_MAX + 1 }, (_, i) => `i${i}`);
    const all = [...ids.map((id) => b.submit('n1', id, body())), b.submit('n2', 'other', body())];
    await tick();
    for (let i = 1; i < 4; i++) {
      const c = s.calls[i];
      c.answer(c.kind === 'one' ? { status: 200, body: {} } : ok(c.ids));
      await tick();
    }
    await Promise.all(all);
    expect(s.calls.slice(1).map((c) => [c.kind, c.nodeId, c.ids.length])).toEqual([
      ['many', 'n1', FINISHES_MAX],
      ['one', 'n1', 1],
      ['one', 'n2', 1],
    ]);
  });

  it('sends a batch refused whole (413) one by one, gives other answers to each, rejects on net errors', async () => {
    const s = sender();
    const b = new FinishBatcher(s.port);
    const two = ['a', 'b'].map((id) => b.submit('n1', id, body()));
    await tick();
    s.calls[0].answer({ status: 413, body: { detail: 'too large' } });
    await tick();
    expect(s.calls[1]).toMatchObject({ kind: 'one', ids: ['a'] });
    s.calls[1].answer({ status: 413, body: { detail: 'too large' } });
    await tick();
    expect(s.calls[2]).toMatchObject({ kind: 'one', ids: ['b'] });
    s.calls[2].answer({ status: 200, body: { status: 'SUCCESS', final: true } });
    expect((await Promise.all(two)).map((a) => a.status)).toEqual([413, 200]);

    const gone = ['c', 'd'].map((id) => b.submit('n1', id, body()));
    await tick();
    s.calls[3].answer({ status: 404, body: { detail: 'no such node' } });
    expect(await Promise.all(gone)).toEqual([
      { status: 404, body: { detail: 'no such node' } },
      { status: 404, body: { detail: 'no such node' } },
    ]);
    const lost = ['e', 'f'].map((id) => b.submit('n1', id, body()));
    await tick();
    s.calls[4].answer(new Error('ECONNREFUSED'));
    await expect(Promise.all(lost)).rejects.toThrow('ECONNREFUSED');
    expect(b.size).toBe(0);
  });
});
