/** How long a sample of the slots' free rate runs, ms. */
const RATE_WINDOW_MS = 100;
/** Weight of a new sample in the running figures (rate and round trip). */
const NEW_SAMPLE = 0.5;

/** One claim being measured: call `ended` once its rows are claimed (or the claim failed). */
export interface ClaimTiming {
  ended(): void;
}

/**
 * How many ids the claim loop may claim beyond its free worker slots (docs/execution.md "Node lifecycle"): as many
 * slots as are expected to free during one claim's round trip — slots freed per ms × the claim's round trip, both
 * measured, at most `max` (EXECUTOR_CONCURRENCY). An id claimed ahead waits for its slot about one round trip;
 * handlers that run long free few slots per round trip, so their executor claims (nearly) nothing ahead.
 */
export class ClaimAhead {
  private rtt = 0;
  private rate = 0;
  private frees = 0;
  private since: number;

  /** @param max the most ids claimed ahead; @param now a clock, epoch ms. */
  constructor(
    private readonly max: number,
    private readonly now: () => number,
  ) {
    this.since = now();
  }

  /** Ids that may be claimed beyond the free slots now (0..max). */
  room(): number {
    this.sample();
    return Math.min(this.max, Math.floor(this.rate * this.rtt));
  }

  /** A handler ended and gave its slot back. */
  slotFreed(): void {
    this.frees++;
    this.sample();
  }

  /** Starts timing a claim's round trip (taking ids off the queue and writing the claim). */
  claimStarted(at = this.now()): ClaimTiming {
    let done = false;
    return {
      ended: () => {
        if (done) return;
        done = true;
        this.rtt = mix(this.rtt, Math.max(0, this.now() - at));
      },
    };
  }

  private sample(): void {
    const t = this.now();
    const span = t - this.since;
    if (span < RATE_WINDOW_MS) return;
    this.rate = mix(this.rate, this.frees / span);
    this.frees = 0;
    this.since = t;
  }
}

function mix(old: number, sample: number): number {
  return old * (1 - NEW_SAMPLE) + sample * NEW_SAMPLE;
}
