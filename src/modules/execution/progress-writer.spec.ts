import { ProgressWriter } from './progress-writer.js';

describe('ProgressWriter.end', () => {
  it('should wait for the write in flight, so the last report lands while the row is still RUNNING', async () => {
    let release: () => void = () => undefined;
    const landed: number[] = [];
    const reports = {
      writeProgress: async (rows: Array<{ progress: number }>) => {
        await new Promise<void>((r) => (release = r));
        landed.push(...rows.map((r) => r.progress));
        return rows.length;
      },
    };
    const metrics = { progressCoalesced: { inc: () => undefined }, progressWrites: { inc: () => undefined } };
    const clock = { now: () => 1_000, schedule: () => () => undefined };
    const writer = new ProgressWriter(reports as never, metrics as never, clock as never, {
      longTasks: { progressWriteIntervalMs: 1000 },
    });
    writer.report('i-1#1', 'i-1', 1, 1, 'step 10'); // a new window: written at once
    let ended = false;
    const end = writer.end('i-1#1').then(() => (ended = true));
    await new Promise((r) => setTimeout(r, 20));
    expect(ended).toBe(false); // the finish must not start while the report is still being written
    release();
    await end;
    expect(landed).toEqual([1]);
  });
});
