/** Writes one group of items of one key; answers `items[i]` at index i (same length), or throws for all. */
export type GroupWrite<T, R> = (key: string, items: T[]) => Promise<R[]>;

/** A caller waiting for its item's answer. */
interface Waiter<T, R> {
  item: T;
  resolve: (r: R) => void;
  reject: (e: unknown) => void;
}

/** The submits of one key: queued callers, the start times (ms) of its writes under way, a start planned. */
interface Lane<T, R> {
  queue: Waiter<T, R>[];
  running: Set<{ at: number }>;
  /** A start is planned: at the end of this event-loop turn (`true`) or by a timer. */
  planned: boolean | NodeJS.Timeout;
}

/** How a {@link SubmitCoalescer} groups and overlaps writes. */
export interface CoalescerOptions {
  /** Most items per group (≥ 1). */
  maxGroup?: number;
  /** Most group writes of one key under way at once (≥ 1). */
  maxWrites?: number;
  /** A further write of a key starts only once its youngest write under way has run this long, ms (≥ 0). */
  overlapAfterMs?: number;
  /** The clock, ms (tests). */
  now?: () => number;
}

/**
 * Group commit of concurrent single submits, per key (docs/api.md "Idempotency and submits"): a group never mixes keys
 * (app ids) and one key's write never waits for another's. A submit that finds its key idle is written at the
 * end of the event-loop turn, with the submits of that turn (no timer window); submits that arrive while a write
 * of the key runs queue for the next group, up to `maxGroup`, which starts when that write ends. So that one
 * stalled write (a slow commit) does not hold every later submit of the key, a further group starts beside it
 * once the youngest write under way has run `overlapAfterMs`, up to `maxWrites` writes at once; a write that
 * ends while an older one is still stalled lets the next group start at once. Each caller gets the answer at its
 * own index; when a group's write throws, every caller of that group (only) is rejected with the error, so the
 * write must resolve only once every item it answers is durable. Overlapping groups may carry the same item
 * identity (a requestId): the write must resolve that itself (TasksService: the unique key).
 */
export class SubmitCoalescer<T, R> {
  private readonly lanes = new Map<string, Lane<T, R>>();
  private readonly maxGroup: number;
  private readonly maxWrites: number;
  private readonly overlapAfterMs: number;
  private readonly now: () => number;

  /**
   * @param write writes one group: 1..maxGroup items of one key, at most maxWrites groups of a key at once.
   * @throws RangeError for an option out of its range.
   */
  constructor(
    private readonly write: GroupWrite<T, R>,
    options: CoalescerOptions = {},
  ) {
    this.maxGroup = options.maxGroup ?? 500;
    this.maxWrites = options.maxWrites ?? 2;
    this.overlapAfterMs = options.overlapAfterMs ?? 10;
    this.now = options.now ?? Date.now;
    if (!(this.maxGroup >= 1 && this.maxWrites >= 1 && this.overlapAfterMs >= 0))
      throw new RangeError(`invalid coalescer options ${JSON.stringify(options)}`);
  }

  /**
   * Writes `item` in a group of `key` and answers its result.
   * @throws whatever the group's write threw.
   */
  submit(key: string, item: T): Promise<R> {
    let lane = this.lanes.get(key);
    if (!lane) {
      lane = { queue: [], running: new Set(), planned: false };
      this.lanes.set(key, lane);
    }
    const queued = lane;
    return new Promise<R>((resolve, reject) => {
      queued.queue.push({ item, resolve, reject });
      this.plan(key, queued);
    });
  }

  /** Keys with a caller waiting for an answer (for tests and metrics). */
  get activeKeys(): number {
    return this.lanes.size;
  }

  /** Plans the start of the key's next group, if one may start now or later (a write's end plans again). */
  private plan(key: string, lane: Lane<T, R>, afterWrite = false): void {
    if (lane.planned !== false || lane.queue.length === 0 || lane.running.size >= this.maxWrites) return;
    if (lane.running.size === 0) {
      // Callers of this event-loop turn join: no timer, ~no latency. After a write, at once (the queue is a group).
      if (afterWrite) return this.start(key, lane);
      lane.planned = true;
      setImmediate(() => {
        lane.planned = false;
        this.start(key, lane);
      });
      return;
    }
    const youngest = Math.max(...[...lane.running].map((w) => w.at));
    const wait = youngest + this.overlapAfterMs - this.now();
    if (wait <= 0) return this.start(key, lane);
    lane.planned = setTimeout(() => {
      lane.planned = false;
      this.plan(key, lane);
    }, wait);
  }

  private start(key: string, lane: Lane<T, R>): void {
    if (lane.queue.length === 0 || lane.running.size >= this.maxWrites) return;
    const group = lane.queue.splice(0, this.maxGroup);
    const write = { at: this.now() };
    lane.running.add(write);
    void this.run(key, group).finally(() => {
      lane.running.delete(write);
      if (lane.queue.length === 0 && lane.running.size === 0) return void this.lanes.delete(key);
      if (typeof lane.planned === 'object') {
        clearTimeout(lane.planned);
        lane.planned = false;
      }
      this.plan(key, lane, true);
    });
  }

  private async run(key: string, group: Waiter<T, R>[]): Promise<void> {
    try {
      const results = await this.write(key, group.map((g) => g.item));
      if (results.length !== group.length)
        throw new Error(`group write returned ${results.length} results for ${group.length} items`);
      group.forEach((g, i) => g.resolve(results[i]));
    } catch (err) {
      for (const g of group) g.reject(err);
    }
  }
}
