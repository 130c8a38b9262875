import type { HandlerLogLevel } from '../../metadata/index.js';

/** A line logged by a handler, `at` epoch ms UTC. */
export interface LogLine {
  at: number;
  level: HandlerLogLevel;
  line: string;
}

/** Who logged: the attempt the lines belong to. */
export interface LogOwner {
  namespace: string;
  instanceId: string;
  attempt: number;
  nodeId: string;
}

/** What one flush writes for one attempt ({@link AttemptLog.take}). */
export interface LogBatch {
  lines: LogLine[];
  /** Oldest stored lines to remove (above the marker); the first becomes the marker when there is none yet. */
  drop: number;
  /** The marker to write or rewrite (its text and the drops it counts), else null. */
  marker: { text: string; count: number } | null;
}

interface Sized {
  bytes: number;
}

/**
 * The bounded log of one attempt (docs/long-tasks.md "Handler logs"): at most `maxLines` lines and `maxBytes`
 * UTF-8 bytes kept, the oldest dropped first, plus one marker line (the attempt's first row) saying how many
 * were dropped. Lines pass through three stages: buffered here, in flight (one flush at a time, the writer's
 * group commit guarantees it) and stored; the accounting covers all three so the bounds hold in the table.
 */
export class AttemptLog {
  /** Byte sizes of stored then in-flight lines, oldest first, from `head`; the first `pending` are to delete. */
  private sizes: number[] = [];
  private head = 0;
  private pending = 0;
  private pendingBytes = 0;
  private sizesBytes = 0;
  /** How many of `sizes` are in the table (the rest are in flight). */
  private stored = 0;
  private inFlight = 0;
  /** Buffered lines from `bufferHead` (dropping the oldest is O(1): a tight loop may log far past the bound). */
  private buffer: Array<LogLine & Sized> = [];
  private bufferHead = 0;
  private bufferBytes = 0;
  /** Lines the bounds dropped so far, and how many the stored marker says. */
  private dropped = 0;
  private markerSays = 0;
  private counted = 0;
  /** The marker row's id once it exists. */
  markerId: number | null = null;

  constructor(
    readonly owner: LogOwner,
    private readonly maxLines: number,
    private readonly maxBytes: number,
  ) {}

  /** Lines the bounds dropped so far. */
  get droppedLines(): number {
    return this.dropped;
  }

  /** Lines the bounds dropped since the last call (for the metric). */
  takeNewDrops(): number {
    const n = this.dropped - this.counted;
    this.counted = this.dropped;
    return n;
  }

  /** Whether a flush has anything to write. */
  get dirty(): boolean {
    return this.buffer.length > this.bufferHead || this.pending > 0 || this.dropped !== this.markerSays;
  }

  /** Keeps `line` (already cut to fit maxBytes), dropping the oldest lines past a bound. */
  add(line: LogLine): void {
    const bytes = Buffer.byteLength(line.line, 'utf8');
    this.buffer.push({ ...line, bytes });
    this.bufferBytes += bytes;
    while (this.overBound() && this.keptLines() > 1) this.dropOldest();
  }

  /** Moves the buffered lines in flight and says what the flush must write; null when nothing. */
  take(): LogBatch | null {
    if (!this.dirty) return null;
    const taken = this.buffer.slice(this.bufferHead);
    const lines = taken.map(({ at, level, line }) => ({ at, level, line }));
    for (const l of taken) this.sizes.push(l.bytes);
    this.sizesBytes += this.bufferBytes;
    this.inFlight = taken.length;
    this.buffer = [];
    this.bufferHead = 0;
    this.bufferBytes = 0;
    const drop = Math.min(this.pending, this.stored);
    const marker = this.dropped !== this.markerSays ? { text: this.markerText(), count: this.dropped } : null;
    return { lines, drop, marker };
  }

  /** The flush of `batch` committed; `markerId`: the marker row after it (null: none). */
  flushed(batch: LogBatch, markerId: number | null): void {
    for (let i = 0; i < batch.drop; i++) this.forget();
    this.pending -= batch.drop;
    this.stored += this.inFlight;
    this.inFlight = 0;
    if (batch.marker !== null) this.markerSays = batch.marker.count;
    this.markerId = markerId;
  }

  /** The flush failed (nothing of it committed): its in-flight lines are lost. @returns how many. */
  failed(): number {
    const start = this.head + this.stored;
    // In-flight lines the bounds dropped meanwhile stay counted as dropped, not as lost.
    const droppedInFlight = Math.max(0, this.pending - this.stored);
    for (let i = start; i < start + droppedInFlight; i++) this.pendingBytes -= this.sizes[i];
    this.pending -= droppedInFlight;
    for (let i = start; i < this.sizes.length; i++) this.sizesBytes -= this.sizes[i];
    this.sizes.length = start;
    const lost = this.inFlight - droppedInFlight;
    this.inFlight = 0;
    return lost;
  }

  private markerText(): string {
    return (
      `[tickwheel] ${this.dropped} earlier line(s) of this attempt dropped ` +
      `(limits ${this.maxLines} lines, ${this.maxBytes} bytes per attempt)`
    );
  }

  private keptLines(): number {
    return this.sizes.length - this.head - this.pending + this.buffer.length - this.bufferHead;
  }

  private overBound(): boolean {
    const bytes = this.sizesBytes - this.pendingBytes + this.bufferBytes;
    return this.keptLines() > this.maxLines || bytes > this.maxBytes;
  }

  private dropOldest(): void {
    this.dropped++;
    if (this.head + this.pending < this.sizes.length) {
      this.pendingBytes += this.sizes[this.head + this.pending];
      this.pending++;
      return;
    }
    this.bufferBytes -= this.buffer[this.bufferHead++].bytes;
    if (this.bufferHead > 1024 && this.bufferHead * 2 > this.buffer.length) {
      this.buffer = this.buffer.slice(this.bufferHead);
      this.bufferHead = 0;
    }
  }

  /** Removes the oldest size (a stored line deleted); compacts the array now and then. */
  private forget(): void {
    const bytes = this.sizes[this.head++];
    this.sizesBytes -= bytes;
    this.pendingBytes -= bytes;
    this.stored--;
    if (this.head > 1024 && this.head * 2 > this.sizes.length) {
      this.sizes = this.sizes.slice(this.head);
      this.head = 0;
    }
  }
}
