import { AckBuffer } from './ack-buffer.js';

/**
 * An id whose ack failed can be routed to the same node again and claimed before the kept ack went out
 * (a retry or hand-back due at once): the processing list then holds the id twice, one entry per claim,
 * and each entry needs its own LREM (ackMany removes one occurrence per id it is given).
 */
describe('AckBuffer with an id claimed again on the same node', () => {
  /** A processing list as Redis keeps it: ackMany removes one occurrence per id (LREM count 1). */
  let processing: string[];
  let failing: boolean;
  const sut = () =>
    new AckBuffer(
      async (ids) => {
        if (failing) throw new Error('Connection is closed.');
        for (const id of ids) {
          const at = processing.indexOf(id);
          if (at >= 0) processing.splice(at, 1);
        }
      },
      () => undefined,
    );

  beforeEach(() => {
    processing = [];
    failing = false;
  });

  it('should remove every entry of an id whose acks both failed, one per claim', async () => {
    const buffer = sut();
    processing.push('x'); // attempt 1 claimed
    failing = true;
    await buffer.submit('x'); // attempt 1 ended, its ack failed: kept
    failing = false;
    processing.push('x'); // retried at once, routed here again and claimed: a second entry
    failing = true;
    await buffer.submit('x'); // attempt 2 ended, its ack failed too
    expect(buffer.unacked).toBe(2);
    failing = false;

    await buffer.retry();

    expect(processing).toEqual([]); // no finished id left to count as load or hide a lost push
    expect(buffer.unacked).toBe(0);
  });

  it('should still remove both entries when the second ack goes through with the kept one', async () => {
    const buffer = sut();
    processing.push('x');
    failing = true;
    await buffer.submit('x');
    failing = false;
    processing.push('x');

    await buffer.submit('x');

    expect(processing).toEqual([]);
    expect(buffer.unacked).toBe(0);
  });
});
