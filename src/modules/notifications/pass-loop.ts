import { type Clock } from '../../common/index.js';

/**
 * Runs `pass` every `everyMs` on `clock` (at once again when it returns true: more work waits), never two at once,
 * until {@link stop}; a pass that throws is reported
 * to `onError` and the loop goes on (a bad row or a database outage never stops it).
 */
export class PassLoop {
  private cancel: (() => void) | null = null;
  private running: Promise<void> | null = null;
  private stopped = false;

  constructor(
    private readonly clock: Clock,
    private readonly everyMs: number,
    private readonly pass: () => Promise<boolean | void>,
    private readonly onError: (err: Error) => void,
  ) {}

  /** Starts the loop with a pass after `firstMs`. */
  start(firstMs = 0): void {
    this.schedule(firstMs);
  }

  /** Stops scheduling and waits for a pass in progress. */
  async stop(): Promise<void> {
    this.stopped = true;
    this.cancel?.();
    await this.running;
  }

  private schedule(delayMs: number): void {
    if (this.stopped) return;
    this.cancel = this.clock.schedule(delayMs, () => {
      let more = false;
      this.running = this.pass()
        .then((m) => void (more = m === true))
        .catch((err: Error) => this.onError(err))
        .finally(() => {
          this.running = null;
          this.schedule(more ? 0 : this.everyMs);
        });
    });
  }
}
