import { AttemptLog, type LogBatch } from './attempt-log.js';

const owner = { namespace: 'ns', instanceId: 'i-1', attempt: 1, nodeId: 'n-1' };

/** Lines 'l<from>'..'l<to-1>' added to `log`. */
function addLines(log: AttemptLog, from: number, to: number): void {
  for (let i = from; i < to; i++) log.add({ at: i, level: 'info', line: `l${i}` });
}

/** A stand-in for job_log: applies batches as the writer does (drop oldest, marker first, then lines). */
class Table {
  rows: Array<{ id: number; line: string }> = [];
  private next = 1;

  apply(log: AttemptLog, b: LogBatch): void {
    let marker = log.markerId;
    const above = this.rows.filter((r) => marker === null || r.id > marker).slice(0, b.drop);
    if (marker === null && above.length > 0) marker = (above.shift() as { id: number }).id;
    this.rows = this.rows.filter((r) => !above.some((a) => a.id === r.id));
    if (b.marker) {
      const row = this.rows.find((r) => r.id === marker);
      if (row) row.line = b.marker.text;
      else this.rows.push({ id: (marker = this.next++), line: b.marker.text });
    }
    for (const l of b.lines) this.rows.push({ id: this.next++, line: l.line });
    log.flushed(b, marker);
  }
}

describe('AttemptLog bounds', () => {
  it('should keep the newest maxLines lines and a first marker line counting the dropped ones', () => {
    const log = new AttemptLog(owner, 3, 1 << 20);
    const table = new Table();
    addLines(log, 0, 2);
    table.apply(log, log.take() as LogBatch);
    addLines(log, 2, 7);
    table.apply(log, log.take() as LogBatch);
    expect(table.rows.map((r) => r.line)).toEqual([
      expect.stringMatching(/^\[tickwheel\] 4 earlier line\(s\) of this attempt dropped/),
      'l4',
      'l5',
      'l6',
    ]);
    addLines(log, 7, 9);
    table.apply(log, log.take() as LogBatch);
    expect(table.rows.map((r) => r.line.slice(0, 14))).toEqual(['[tickwheel] 6 ', 'l6', 'l7', 'l8']);
    expect(log.take()).toBeNull();
  });

  it('should drop buffered lines before they are written, the marker inserted first', () => {
    const log = new AttemptLog(owner, 2, 1 << 20);
    const table = new Table();
    addLines(log, 0, 5);
    table.apply(log, log.take() as LogBatch);
    expect(table.rows.map((r) => r.line.slice(0, 14))).toEqual(['[tickwheel] 3 ', 'l3', 'l4']);
  });

  it('should bound the UTF-8 bytes kept', () => {
    const log = new AttemptLog(owner, 1000, 1024);
    const table = new Table();
    for (let i = 0; i < 10; i++) log.add({ at: i, level: 'info', line: 'é'.repeat(100) }); // 200 bytes each
    table.apply(log, log.take() as LogBatch);
    expect(table.rows.length).toBe(1 + 5);
    expect(log.droppedLines).toBe(5);
  });

  it('should count lines of a failed flush as lost and keep the bounds right after it', () => {
    const log = new AttemptLog(owner, 3, 1 << 20);
    const table = new Table();
    addLines(log, 0, 3);
    table.apply(log, log.take() as LogBatch);
    addLines(log, 3, 5);
    log.take();
    addLines(log, 5, 7); // l0, l1 dropped before the flight, l2 and the in-flight l3 during it
    expect(log.failed()).toBe(1); // l3 was dropped by the bounds, l4 is lost
    table.apply(log, log.take() as LogBatch);
    expect(table.rows.map((r) => r.line.slice(0, 14))).toEqual(['[tickwheel] 4 ', 'l5', 'l6']);
  });

  it('should keep only the newest lines of a long burst between two flushes', () => {
    const log = new AttemptLog(owner, 10, 1 << 20);
    const table = new Table();
    addLines(log, 0, 5000);
    const batch = log.take() as LogBatch;
    expect(batch.lines.map((l) => l.line)).toEqual(Array.from({ length: 10 }, (_, i) => `l${4990 + i}`));
    table.apply(log, batch);
    expect(table.rows[0].line).toMatch(/^\[tickwheel\] 4990 earlier/);
    expect(log.takeNewDrops()).toBe(4990);
    expect(log.takeNewDrops()).toBe(0);
  });
});
