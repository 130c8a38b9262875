import { Inject, Injectable, type LoggerService } from '@nestjs/common';
import { CLOCK, type Clock } from '../../common/index.js';
import { APP_CONFIG, type AppConfig } from '../../config/index.js';
import { type CheckpointWrite, ExecutionInstances, type StoredCheckpoint, withDbRetry } from '../metadata/index.js';
import { type Checkpoint, CheckpointRejected, encodeCheckpoint } from '../handler/index.js';

/** How long a checkpoint write is retried through transient database errors (a lost connection), ms. */
const WRITE_RETRY_MS = 2_000;

/** Where an attempt's checkpoints go: ExecutionInstances.writeCheckpoint (false: a newer token owns the row). */
export type CheckpointStore = (w: CheckpointWrite) => Promise<boolean>;

/** One attempt's identity as its checkpoints carry it. */
export interface CheckpointedAttempt {
  id: string;
  attempt: number;
  fencingToken: number;
}

/**
 * A stored checkpoint as the handler sees it; null when there is none or its text cannot be read (cut, edited by
 * hand): the attempt then starts from the beginning with a warning, never fails or is quarantined for it.
 */
export function decodeCheckpoint(
  stored: StoredCheckpoint | null,
  instanceId: string,
  logger: LoggerService,
): Checkpoint | null {
  if (!stored) return null;
  const { attempt, fencingToken, at } = stored;
  try {
    if (stored.text === null) throw new Error('no text stored');
    return { state: JSON.parse(stored.text) as unknown, attempt, fencingToken, at };
  } catch (err) {
    const bytes = stored.text === null ? 0 : Buffer.byteLength(stored.text, 'utf8');
    logger.warn(
      `instance ${instanceId}: checkpoint of attempt ${attempt} is not valid JSON (${bytes} bytes: ` +
        `${(err as Error).message}); lastCheckpoint is null, the handler starts from the beginning`,
    );
    return null;
  }
}

/**
 * The checkpoint writes of one attempt, one at a time in call order (a second call waits for the first), so the
 * row always ends with the last state asked for. The state is encoded at the call: later changes to the object
 * do not leak into a write. After each durable write `onAlive` runs (the heartbeat of docs/long-tasks.md).
 */
export class AttemptCheckpoints {
  private tail: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly store: CheckpointStore,
    private readonly attempt: CheckpointedAttempt,
    private readonly limits: { maxBytes: number; leaseMs: number },
    private readonly clock: Clock,
    private readonly onAlive: () => void,
  ) {}

  /** @throws RangeError (not JSON, too large), CheckpointRejected (stale token), a database error. */
  write(state: unknown): Promise<void> {
    let json: string;
    try {
      json = encodeCheckpoint(state, this.limits.maxBytes);
    } catch (err) {
      return Promise.reject(err as Error);
    }
    const run = this.tail.then(() => this.persist(json));
    this.tail = run.catch(() => undefined);
    return run;
  }

  private async persist(json: string): Promise<void> {
    // SQLite writes synchronously: a handler looping on `await ctx.checkpoint()` never gave the event loop a turn
    // (API, leases, SIGTERM all froze). One macrotask per write lets them run between checkpoints.
    await new Promise<void>((resolve) => setImmediate(resolve));
    const { id, attempt, fencingToken } = this.attempt;
    const at = this.clock.now();
    const w = { id, attempt, fencingToken, json, at, leaseUntil: at + this.limits.leaseMs };
    // Repeating the same conditional UPDATE is harmless: a retry after a lost answer writes the same values.
    const won = await withDbRetry(() => this.store(w), WRITE_RETRY_MS);
    if (!won) throw new CheckpointRejected(id, fencingToken);
    this.onAlive();
  }
}

/** Opens an attempt's {@link AttemptCheckpoints}: at most CHECKPOINT_MAX_BYTES, each write renews the lease. */
@Injectable()
export class CheckpointWriter {
  private readonly limits: { maxBytes: number; leaseMs: number };

  constructor(
    @Inject(ExecutionInstances) private readonly rows: Pick<ExecutionInstances, 'writeCheckpoint'>,
    @Inject(APP_CONFIG) config: Pick<AppConfig, 'leaseMs'> & { longTasks: { checkpointMaxBytes: number } },
    @Inject(CLOCK) private readonly clock: Clock,
  ) {
    this.limits = { maxBytes: config.longTasks.checkpointMaxBytes, leaseMs: config.leaseMs };
  }

  /** The checkpoints of `attempt`; `onAlive` runs after each durable write. */
  open(attempt: CheckpointedAttempt, onAlive: () => void): AttemptCheckpoints {
    return new AttemptCheckpoints((w) => this.rows.writeCheckpoint(w), attempt, this.limits, this.clock, onAlive);
  }
}
