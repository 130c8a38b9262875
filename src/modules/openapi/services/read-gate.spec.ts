import { SchedulerError } from '../../../common/index.js';
import { ReadGate, READS_PER_APP, READS_WAITING_PER_APP } from './read-gate.js';

/** A read that ends when `end()` is called, counting how many run at once. */
function reads() {
  let running = 0;
  let most = 0;
  const ends: Array<() => void> = [];
  const read = () =>
    new Promise<string>((resolve) => {
      most = Math.max(most, ++running);
      ends.push(() => {
        running--;
        resolve('ok');
      });
    });
  return { read, ends, most: () => most };
}

const tick = () => new Promise((r) => setImmediate(r));

describe('ReadGate', () => {
  it("should run READS_PER_APP of an app's reads at once, the rest in turn, and refuse past the queue", async () => {
    const gate = new ReadGate();
    const r = reads();
    const all = Array.from({ length: READS_PER_APP + READS_WAITING_PER_APP }, () => gate.run('a', r.read));
    await tick();
    expect(r.ends).toHaveLength(READS_PER_APP);
    await expect(gate.run('a', r.read)).rejects.toThrow(SchedulerError);
    const refused = { code: 'RATE_LIMITED', details: { retryAfterSeconds: 1 } };
    await expect(gate.run('a', r.read)).rejects.toMatchObject(refused);
    for (let i = 0; i < all.length; i++) {
      r.ends[i]();
      await tick();
    }
    await expect(Promise.all(all)).resolves.toHaveLength(all.length);
    expect(r.most()).toBe(READS_PER_APP);
  });

  it("should not make one app's reads wait for another's", async () => {
    const gate = new ReadGate();
    const a = reads();
    const b = reads();
    for (let i = 0; i < READS_PER_APP + 3; i++) void gate.run('a', a.read);
    const bDone = gate.run('b', b.read);
    await tick();
    expect(b.ends).toHaveLength(1);
    b.ends[0]();
    await expect(bDone).resolves.toBe('ok');
  });

  it('should free the slot of a read that fails', async () => {
    const gate = new ReadGate();
    for (let i = 0; i < READS_PER_APP; i++)
      await expect(gate.run('a', () => Promise.reject(new Error('db gone')))).rejects.toThrow('db gone');
    await expect(gate.run('a', async () => 'again')).resolves.toBe('again');
  });
});
