import { AckBuffer, MAX_KEPT_ACKS } from './ack-buffer.js';

describe('AckBuffer', () => {
  let acked: string[][];
  let failing: boolean;
  let warnings: string[];
  const sut = () =>
    new AckBuffer(
      async (ids) => {
        if (failing) throw new Error('Connection is closed.');
        acked.push(ids);
      },
      (m) => warnings.push(m),
    );

  beforeEach(() => {
    acked = [];
    failing = false;
    warnings = [];
  });

  it('should ack the ids that end in one turn together', async () => {
    const buffer = sut();
    await Promise.all(['a', 'b', 'c'].map((id) => buffer.submit(id)));
    expect(acked).toEqual([['a', 'b', 'c']]);
    expect(buffer.unacked).toBe(0);
  });

  it('should keep the ids of a failed ack and send them again with the next group', async () => {
    const buffer = sut();
    failing = true;
    await expect(Promise.all([buffer.submit('a'), buffer.submit('b')])).resolves.toBeDefined(); // never rejects
    expect(buffer.unacked).toBe(2);
    expect(warnings).toEqual([expect.stringMatching(/ack of 2 id\(s\) failed \(Connection is closed\.\); 2 kept/)]);
    failing = false;
    await buffer.submit('c');
    expect(acked).toEqual([['a', 'b', 'c']]);
    expect(buffer.unacked).toBe(0);
  });

  it('should send the kept ids again on retry (the heartbeat), and do nothing when none is kept', async () => {
    const buffer = sut();
    await buffer.retry();
    expect(acked).toEqual([]);
    failing = true;
    await buffer.submit('a');
    await buffer.retry();
    expect(buffer.unacked).toBe(1);
    failing = false;
    await buffer.retry();
    expect(acked).toEqual([['a']]);
    expect(buffer.unacked).toBe(0);
  });

  it(`should keep at most ${MAX_KEPT_ACKS} ids, giving up the oldest`, async () => {
    const buffer = sut();
    failing = true;
    const ids = Array.from({ length: MAX_KEPT_ACKS + 5 }, (_, i) => `id-${i}`);
    await Promise.all(ids.map((id) => buffer.submit(id)));
    expect(buffer.unacked).toBe(MAX_KEPT_ACKS);
    failing = false;
    await buffer.retry();
    expect(acked.flat()).toEqual(ids.slice(5));
  });
});
