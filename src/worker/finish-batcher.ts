import type { ApiAnswer, FinishBody, FinishedItem } from './worker-api.js';

/** Finishes in one `finishes` call at most (the route's bound). */
export const FINISHES_MAX = 100;
/** JSON bytes of one `finishes` body at most: well under the api's 2 MiB, so one call is never refused for size. */
export const FINISHES_MAX_BYTES = 512 * 1024;

/** How a batcher sends: one finish on the single route, several on `finishes` (each with its retry plan). */
export interface FinishSender {
  one(nodeId: string, instanceId: string, body: FinishBody): Promise<ApiAnswer>;
  many(
    nodeId: string,
    items: Array<FinishBody & { instanceId: string }>,
  ): Promise<ApiAnswer<{ items?: FinishedItem[] }>>;
}

interface Pending {
  nodeId: string;
  instanceId: string;
  body: FinishBody;
  bytes: number;
  resolve: (a: ApiAnswer) => void;
  reject: (err: unknown) => void;
}

/**
 * Groups an app worker's finishes (docs/workers.md "finishes"): one call in flight at a time; the finishes that end
 * meanwhile (or in the same turn of the event loop) go together in the next, up to FINISHES_MAX and
 * FINISHES_MAX_BYTES, as an executor's finishing writes share a group commit. Each caller gets the answer the single
 * route would have given its finish: a lone finish goes on the single route; a batch the api refuses whole (`400`,
 * `413`: one item it cannot take) is sent again one by one, so one bad result fails only its own attempt; any other
 * whole answer (`404` node gone, `401`, `5xx` after the retries) is every item's.
 */
export class FinishBatcher {
  private readonly queue: Pending[] = [];
  private flushing = false;

  constructor(private readonly sender: FinishSender) {}

  /** Finishes waiting or in flight. */
  get size(): number {
    return this.queue.length;
  }

  /** Sends `body` in the next call; resolves with its answer. Rejects with the network error when every try failed. */
  submit(nodeId: string, instanceId: string, body: FinishBody): Promise<ApiAnswer> {
    return new Promise((resolve, reject) => {
      const bytes = JSON.stringify(body).length + instanceId.length + 20;
      this.queue.push({ nodeId, instanceId, body, bytes, resolve, reject });
      if (!this.flushing) {
        this.flushing = true;
        setImmediate(() => void this.flush()); // the finishes of this turn go in one call
      }
    });
  }

  private async flush(): Promise<void> {
    try {
      while (this.queue.length > 0) await this.send(this.take());
    } finally {
      this.flushing = false;
    }
  }

  /** The head's node's finishes off the queue's front, within the bounds (at least one). */
  private take(): Pending[] {
    const nodeId = this.queue[0].nodeId;
    const batch: Pending[] = [];
    let bytes = 0;
    for (let i = 0; i < this.queue.length && batch.length < FINISHES_MAX;) {
      const p = this.queue[i];
      if (p.nodeId !== nodeId) {
        i++;
        continue;
      }
      if (batch.length > 0 && bytes + p.bytes > FINISHES_MAX_BYTES) break;
      bytes += p.bytes;
      batch.push(p);
      this.queue.splice(i, 1);
    }
    return batch;
  }

  private async send(batch: Pending[]): Promise<void> {
    if (batch.length === 1) return this.sendOne(batch[0]);
    const { nodeId } = batch[0];
    let answer: ApiAnswer<{ items?: FinishedItem[] }>;
    try {
      answer = await this.sender.many(
        nodeId,
        batch.map((p) => ({ instanceId: p.instanceId, ...p.body })),
      );
    } catch (err) {
      for (const p of batch) p.reject(err);
      return;
    }
    const items = answer.body?.items;
    if (answer.status === 200 && Array.isArray(items) && items.length === batch.length) {
      batch.forEach((p, i) => p.resolve(itemAnswer(items[i])));
    } else if (answer.status === 400 || answer.status === 413) {
      for (const p of batch) await this.sendOne(p);
    } else {
      for (const p of batch) p.resolve({ status: answer.status, body: answer.body });
    }
  }

  private async sendOne(p: Pending): Promise<void> {
    await this.sender.one(p.nodeId, p.instanceId, p.body).then(p.resolve, p.reject);
  }
}

/** One item of a `finishes` answer as the single route's answer. */
function itemAnswer(item: FinishedItem): ApiAnswer {
  if (item.code === 200) return { status: 200, body: { status: item.status, final: item.final } };
  return { status: item.code, body: { detail: item.detail ?? '' } };
}
