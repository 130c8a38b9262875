import { FakeClock } from '../../../../test/fakes/fake-clock.js';
import { advanceSettled, gate, settle } from '../../../../test/fakes/settle.js';
import { type Duty, type DutyContext, DutyRunner } from './duty-runner.js';

const T0 = Date.UTC(2030, 0, 1);

/** The generic duty runner on a hand-driven clock: rounds, one run at a time, wake-ups, leads, shutdown. */
describe(DutyRunner.name, () => {
  let clock: FakeClock;
  /** `<duty>@<ms since T0>` per run start, in order. */
  let runs: string[];
  let errors: string[];
  let sut: DutyRunner;

  beforeEach(() => {
    clock = new FakeClock(T0);
    runs = [];
    errors = [];
  });

  afterEach(async () => {
    sut.stop();
    await sut.idle();
  });

  const at = () => clock.now() - T0;
  /** Starts a lead and lets the runs it started at once finish (their stubs answer at once). */
  const lead = async () => {
    sut.start();
    await settle();
  };
  const runner = (duties: Duty[]) =>
    (sut = new DutyRunner(duties, (_name, delayMs, fn) => clock.schedule(delayMs, fn), clock, {
      error: (m: string) => void errors.push(m),
      warn: (m: string) => void errors.push(m),
    }));
  const duty = (name: string, every: number, more: Partial<Duty> = {}, work?: (ctx: DutyContext) => Promise<void>) =>
    ({
      name,
      every,
      ...more,
      run: async (ctx: DutyContext) => {
        runs.push(`${name}@${at()}`);
        await work?.(ctx);
      },
    }) as Duty;

  it('should run a duty at the start of the lead and then every period, or first one period in', async () => {
    runner([duty('scan', 1000, { atStart: true }), duty('purge', 3000)]);
    await lead();
    await advanceSettled(clock, T0 + 6000);
    expect(runs.filter((r) => r.startsWith('scan'))).toEqual([0, 1, 2, 3, 4, 5, 6].map((i) => `scan@${i * 1000}`));
    expect(runs.filter((r) => r.startsWith('purge'))).toEqual(['purge@3000', 'purge@6000']);
    expect(clock.pendingCount).toBe(2); // one next round per duty
  });

  it('should not overlap a slow run: the rounds due while it runs are skipped', async () => {
    const slow = gate();
    runner([duty('scan', 1000, { atStart: true }, () => (at() === 0 ? slow.wait : Promise.resolve()))]);
    await lead();
    await advanceSettled(clock, T0 + 2500);
    expect(runs).toEqual(['scan@0']);
    expect(sut.isRunning('scan')).toBe(true);
    slow.open();
    await settle();
    await advanceSettled(clock, T0 + 3000);
    expect(runs).toEqual(['scan@0', 'scan@3000']);
  });

  it('should run once more after a run during which it was woken, however many wake-ups came', async () => {
    const slow = gate();
    runner([duty('pump', 0, {}, () => (runs.length === 1 ? slow.wait : Promise.resolve()))]).start();
    sut.wake('pump');
    await settle();
    sut.wake('pump');
    sut.wake('pump');
    sut.wake('pump');
    expect(runs).toEqual(['pump@0']);
    slow.open();
    await settle();
    expect(runs).toEqual(['pump@0', 'pump@0']);
    expect(sut.isRunning('pump')).toBe(false);
  });

  it('should log a failed run and go on with the next rounds', async () => {
    runner([
      duty('scan', 1000, { atStart: true }, async () => {
        if (at() === 1000) throw new Error('database gone');
      }),
    ]);
    await lead();
    await advanceSettled(clock, T0 + 2000);
    expect(runs).toEqual(['scan@0', 'scan@1000', 'scan@2000']);
    expect(errors).toEqual(['scan failed: database gone']);
  });

  it("should hold a duty's runs until the first run of the duty it waits for has ended", async () => {
    const startup = gate();
    runner([
      duty('load', 1000, { atStart: true }, (ctx) => (ctx.first ? startup.wait : Promise.resolve())),
      duty('repair', 500, { atStart: true, after: 'load' }),
    ]).start();
    await advanceSettled(clock, T0 + 700);
    expect(runs).toEqual(['load@0']);
    startup.open();
    await settle();
    expect(runs).toEqual(['load@0', 'repair@700']);
  });

  it('should end the lead at once: signal aborted, timers, wake-ups and rounds gone, end hooks called', async () => {
    const slow = gate();
    const seen: DutyContext[] = [];
    const ended: string[] = [];
    const woken: Array<() => void> = [];
    const unsubscribed: string[] = [];
    runner([
      duty('scan', 1000, { atStart: true, end: () => ended.push('scan') }, async (ctx) => {
        seen.push(ctx);
        if (at() === 1000) await slow.wait;
      }),
      duty('pump', 200, {
        wakeOn: async (wake) => (woken.push(wake), async () => void unsubscribed.push('pump')),
      }),
    ]).start();
    await advanceSettled(clock, T0 + 1000);
    sut.stop();
    expect(seen[1].signal.aborted).toBe(true);
    expect([ended, unsubscribed, clock.pendingCount]).toEqual([['scan'], ['pump'], 0]);
    const before = runs.length;
    woken[0]();
    sut.wake('scan');
    slow.open();
    await advanceSettled(clock, T0 + 10_000);
    expect(runs.length).toBe(before);
  });

  it("should run a new lead's first run of a duty after the old lead's run still in flight", async () => {
    const slow = gate();
    const seen: DutyContext[] = [];
    runner([
      duty('load', 1000, { atStart: true }, async (ctx) => {
        seen.push(ctx);
        if (seen.length === 1) await slow.wait;
      }),
    ]).start();
    await settle();
    sut.stop();
    clock.setNow(T0 + 300);
    sut.start();
    await settle();
    expect(runs).toEqual(['load@0']);
    slow.open();
    await settle();
    expect(runs).toEqual(['load@0', 'load@300']);
    expect(seen.map((c) => [c.first, c.signal.aborted, c.leadingSince - T0])).toEqual([
      [true, true, 0],
      [true, false, 300],
    ]);
  });

  it('should resolve idle only once the runs in flight and the work they track have settled', async () => {
    const slow = gate();
    const release = gate();
    runner([duty('fire', 0, {}, async (ctx) => (ctx.track(release.wait), slow.wait))]).start();
    sut.wake('fire');
    sut.stop();
    let idle = false;
    void sut.idle().then(() => (idle = true));
    slow.open();
    await settle();
    expect(idle).toBe(false);
    release.open();
    await settle();
    expect(idle).toBe(true);
  });

  it('should give a duty without rounds its own timer, cancelled with the lead, and its wake-up', async () => {
    const fired: number[] = [];
    runner([
      duty('wheel', 0, {
        begin: (lead) => {
          lead.schedule(500, () => fired.push(at()));
          lead.schedule(5000, () => lead.wake());
        },
      }),
    ]).start();
    await advanceSettled(clock, T0 + 1000);
    expect(fired).toEqual([500]);
    sut.stop();
    expect(clock.pendingCount).toBe(0);
    await advanceSettled(clock, T0 + 10_000);
    expect(runs).toEqual([]);
  });

  it('should log a wake-up subscription that failed and keep the rounds', async () => {
    runner([duty('load', 1000, { wakeOn: async () => Promise.reject(new Error('redis down')) })]).start();
    await advanceSettled(clock, T0 + 1000);
    expect(errors).toEqual(['load: not listening for wake-ups (its rounds go on): redis down']);
    expect(runs).toEqual(['load@1000']);
  });

  it('should refuse two duties of one name and a wait for an unknown duty', () => {
    expect(() => runner([duty('a', 0), duty('a', 0)])).toThrow('share a name');
    expect(() => runner([duty('a', 0, { after: 'b' })])).toThrow('waits for unknown b');
    runner([]);
  });
});
