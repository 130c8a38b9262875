import type { Logger } from '@nestjs/common';
import type { Clock } from '../../../common/index.js';
import type { Cancel } from '../timing-wheel/index.js';

/** Runs `fn` once after `delayMs` ms (≥ 0) as timer `name`, of which one at most is pending; returns its cancel. */
export type DutyTimers = (name: string, delayMs: number, fn: () => void) => Cancel;

/** The lead a duty's run or hook belongs to. */
export interface LeadContext {
  /** Aborted when this lead ends (lost, or shutdown): from then on the duty writes nothing leader-only. */
  readonly signal: AbortSignal;
  /** When this lead began, epoch ms (UTC). */
  readonly leadingSince: number;
  /** Makes shutdown wait for `work` too: something the duty started and does not await (a release). */
  track(work: Promise<void>): void;
}

/** What one run of a duty gets. */
export interface DutyContext extends LeadContext {
  /** True on the duty's first run of this lead. */
  readonly first: boolean;
}

/** What a duty's `begin` gets: its own timer (for a duty without rounds) and its wake-up. */
export interface DutyStart extends LeadContext {
  /** Runs `fn` after `delayMs` ms on the duty's timer; cancelled when the lead ends. */
  schedule(delayMs: number, fn: () => void): Cancel;
  /** Runs the duty now, or once more after the run in progress. */
  wake(): void;
}

/** One thing the leader does, and when. */
export interface Duty {
  readonly name: string;
  /** Period of its rounds, ms, at a fixed rate from the start of the lead; 0: it runs only when woken. */
  readonly every: number;
  /** A round as the lead starts (else the first is one period in). */
  readonly atStart?: boolean;
  /** A duty whose first run of the lead must end before this one runs. */
  readonly after?: string;
  /** Subscribes `wake` to a signal from elsewhere for the lead; resolves to its unsubscribe. */
  wakeOn?(wake: () => void): Promise<() => Promise<void>>;
  /** Sets up the duty's leader-only state as the lead starts, before any run. */
  begin?(lead: DutyStart): void;
  /** Drops the duty's leader-only state as the lead ends, before the runs in flight end. */
  end?(): void;
  /** The work. A rejection is logged; the rounds go on. */
  run(ctx: DutyContext): Promise<unknown>;
}

/** One lead: its abort signal, the first run of each duty, its timers and subscriptions. */
class Lead {
  readonly controller = new AbortController();
  readonly started = new Set<string>();
  readonly firsts = new Map<string, { done: Promise<void>; resolve: () => void }>();
  readonly timers = new Set<Cancel>();
  readonly offs: Array<() => Promise<void>> = [];

  constructor(
    readonly since: number,
    names: string[],
  ) {
    for (const name of names) {
      let resolve = (): void => undefined;
      const done = new Promise<void>((r) => (resolve = r));
      this.firsts.set(name, { done, resolve });
    }
  }
}

/**
 * Runs the leader's duties while a lead lasts (docs/trigger.md "The leader's loop"), every timer from `timers`.
 * A duty runs at most once at a time, also across leads: a round due during a run is skipped; a wake-up during a
 * run makes it run once more after it (the run may have read before the news), however many came. Ending the
 * lead aborts its signal, cancels its timers and wake-ups and calls each duty's `end`; the runs in flight finish
 * under the aborted signal, and a new lead's run of a duty still running waits for that run to end.
 */
export class DutyRunner {
  private lead: Lead | null = null;
  private readonly running = new Map<string, Promise<void>>();
  private readonly again = new Set<string>();
  private readonly tracked = new Set<Promise<void>>();
  private readonly byName: Map<string, Duty>;

  /** @throws Error when two duties share a name or a duty waits for an unknown one. */
  constructor(
    private readonly duties: readonly Duty[],
    private readonly timers: DutyTimers,
    private readonly clock: Clock,
    private readonly logger: Pick<Logger, 'error' | 'warn'>,
  ) {
    this.byName = new Map(duties.map((d) => [d.name, d]));
    if (this.byName.size !== duties.length) throw new Error('two leader duties share a name');
    for (const d of duties)
      if (d.after && !this.byName.has(d.after)) throw new Error(`duty ${d.name} waits for unknown ${d.after}`);
  }

  /** Starts a lead: every `begin`, then the rounds and wake-ups, then the rounds due at the start, in list order. */
  start(): void {
    if (this.lead) return;
    const lead = (this.lead = new Lead(this.clock.now(), [...this.byName.keys()]));
    for (const duty of this.duties) this.hook(duty, 'begin', () => duty.begin?.(this.startContext(lead, duty)));
    for (const duty of this.duties) {
      if (duty.every > 0) this.arm(lead, duty);
      this.listen(lead, duty);
    }
    for (const duty of this.duties) if (duty.atStart) this.trigger(duty, 'wake');
  }

  /** Ends the lead (lost or shutting down); runs in flight go on under its aborted signal. */
  stop(): void {
    const lead = this.lead;
    if (!lead) return;
    this.lead = null;
    lead.controller.abort();
    for (const cancel of [...lead.timers]) cancel();
    for (const off of lead.offs) void off().catch(() => undefined);
    this.again.clear();
    for (const first of lead.firsts.values()) first.resolve();
    for (const duty of this.duties) this.hook(duty, 'end', () => duty.end?.());
  }

  /** Runs duty `name` now, or once more after its run in progress; nothing while not leading. */
  wake(name: string): void {
    const duty = this.byName.get(name);
    if (duty) this.trigger(duty, 'wake');
  }

  /** Whether a run of duty `name` is in flight. */
  isRunning(name: string): boolean {
    return this.running.has(name);
  }

  /** Resolves once no run is in flight and all tracked work has settled (after {@link stop}: for shutdown). */
  async idle(): Promise<void> {
    for (;;) {
      const pending = [...this.running.values(), ...this.tracked];
      if (pending.length === 0) return;
      await Promise.allSettled(pending);
    }
  }

  /** Sets the duty's next round one period ahead, before this one runs (a fixed rate, as setInterval). */
  private arm(lead: Lead, duty: Duty): void {
    const round = (): void => {
      if (this.lead !== lead) return;
      this.schedule(lead, duty.name, duty.every, round);
      this.trigger(duty, 'round');
    };
    this.schedule(lead, duty.name, duty.every, round);
  }

  private schedule(lead: Lead, name: string, delayMs: number, fn: () => void): Cancel {
    const cancel = this.timers(name, delayMs, () => {
      lead.timers.delete(cancel);
      fn();
    });
    lead.timers.add(cancel);
    return () => {
      lead.timers.delete(cancel);
      cancel();
    };
  }

  private listen(lead: Lead, duty: Duty): void {
    void duty
      .wakeOn?.(() => this.wakeIn(lead, duty))
      .then(
        (off) => (this.lead === lead ? lead.offs.push(off) : void off().catch(() => undefined)),
        (err: Error) => this.logger.warn(`${duty.name}: not listening for wake-ups (its rounds go on): ${err.message}`),
      );
  }

  private wakeIn(lead: Lead, duty: Duty): void {
    if (this.lead === lead) this.trigger(duty, 'wake');
  }

  private trigger(duty: Duty, why: 'round' | 'wake'): void {
    const lead = this.lead;
    if (!lead) return;
    if (this.running.has(duty.name)) {
      if (why === 'wake') this.again.add(duty.name);
      return;
    }
    const run = this.runOnce(lead, duty).finally(() => {
      this.running.delete(duty.name);
      if (this.again.delete(duty.name)) this.trigger(duty, 'wake');
    });
    this.running.set(duty.name, run);
  }

  private async runOnce(lead: Lead, duty: Duty): Promise<void> {
    const first = !lead.started.has(duty.name);
    lead.started.add(duty.name);
    try {
      if (duty.after) await lead.firsts.get(duty.after)?.done;
      if (lead.controller.signal.aborted) return;
      await duty.run({ ...this.leadContext(lead), first });
    } catch (err) {
      this.logger.error(`${duty.name} failed: ${(err as Error).message}`);
    } finally {
      if (first) lead.firsts.get(duty.name)?.resolve();
    }
  }

  private leadContext(lead: Lead): LeadContext {
    return {
      signal: lead.controller.signal,
      leadingSince: lead.since,
      track: (work) => {
        const settled: Promise<void> = work
          .catch((err: Error) => this.logger.error(`leader work failed: ${err.message}`))
          .finally(() => this.tracked.delete(settled));
        this.tracked.add(settled);
      },
    };
  }

  private startContext(lead: Lead, duty: Duty): DutyStart {
    return {
      ...this.leadContext(lead),
      schedule: (delayMs, fn) => {
        if (duty.every > 0) throw new Error(`duty ${duty.name} has rounds: its timer is theirs`);
        return this.schedule(lead, duty.name, delayMs, fn);
      },
      wake: () => this.wakeIn(lead, duty),
    };
  }

  /** Runs a duty's hook; a throw is logged (one duty's state must not keep the others from starting or ending). */
  private hook(duty: Duty, which: 'begin' | 'end', fn: () => void): void {
    try {
      fn();
    } catch (err) {
      this.logger.error(`${duty.name} ${which} failed: ${(err as Error).message}`);
    }
  }
}
