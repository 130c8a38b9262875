import { GroupCommitter } from '../../../common/index.js';

/** Writes one group of items of one key; answers `items[i]` at index i (same length), or throws for all. */
export type GroupWrite<T, R> = (key: string, items: T[]) => Promise<R[]>;

/** The submits of one key: its committer, and how many of its callers have no answer yet. */
interface Lane<T, R> {
  committer: GroupCommitter<T, R>;
  open: number;
}

/**
 * Group commit of concurrent single submits, per key (bench/README "Proposals" 5; docs/api.md): one
 * {@link GroupCommitter} per key (an app id), so a group never mixes apps, one app's write never waits for
 * another's, and per key at most one group write runs at a time. A submit that finds its key idle is written
 * without waiting for company (no timer window: see GroupCommitter); submits that arrive while a write of
 * their key runs go together in the next group, up to `maxGroup`. Each caller gets the answer at its own
 * index; when a group's write throws, every caller of that group is rejected with the error, so the write
 * must resolve only once every item it answers is durable. A key's committer is dropped once none of its callers waits.
 */
export class SubmitCoalescer<T, R> {
  private readonly lanes = new Map<string, Lane<T, R>>();

  /**
   * @param write writes one group: 1..maxGroup items of one key, never two groups of a key at once.
   * @param maxGroup most items per group (≥ 1).
   */
  constructor(
    private readonly write: GroupWrite<T, R>,
    private readonly maxGroup = 500,
  ) {}

  /**
   * Writes `item` in the next group of `key` and answers its result.
   * @throws whatever the group's write threw.
   */
  async submit(key: string, item: T): Promise<R> {
    let lane = this.lanes.get(key);
    if (!lane) {
      lane = { committer: new GroupCommitter((items: T[]) => this.write(key, items), this.maxGroup), open: 0 };
      this.lanes.set(key, lane);
    }
    lane.open++;
    try {
      return await lane.committer.submit(item);
    } finally {
      // No caller left means no group of this key is queued or being written: a new one may start afresh.
      if (--lane.open === 0) this.lanes.delete(key);
    }
  }

  /** Keys with a caller waiting for an answer (for tests and metrics). */
  get activeKeys(): number {
    return this.lanes.size;
  }
}
