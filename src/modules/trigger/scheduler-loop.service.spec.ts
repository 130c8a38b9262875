import type { SchedulerRegistry } from '@nestjs/schedule';
import { FakeClock } from '../../../test/fakes/fake-clock.js';
import { advanceSettled, settle } from '../../../test/fakes/settle.js';
import type { AppConfig } from '../../config/index.js';
import type { ReconcilerService } from '../dispatch/index.js';
import type { JobDefinitionRepository, StagedInstances } from '../metadata/index.js';
import { MetricsService } from '../observability/index.js';
import type { DueDetectorService } from './due-detector.service.js';
import type { JobSignals } from './job-signals.service.js';
import type { LeaderElectionService } from './leader-election.service.js';
import { SchedulerLoopService } from './scheduler-loop.service.js';
import type { StagedTakeback } from './staged-takeback.js';
import type { TriggerService } from './trigger.service.js';

const T0 = Date.UTC(2030, 0, 1);
const INTERVAL_MS = 5000;

/**
 * The leader's maintenance loop (the reconciler's repair pass, then the due detector) on a hand-driven clock.
 * Everything around the loop is a stub; the delay pump and page scan (real intervals) are cleared at once.
 */
describe('SchedulerLoopService maintenance cadence', () => {
  let clock: FakeClock;
  let passes: number[];
  let checks: number[];
  let failAt: Set<number>;
  let leading: (leader: boolean) => void;
  /** The reconciler's leader-only gauge reporting, as the loop turned it. */
  let reporting: boolean[];
  let metrics: MetricsService;
  let sut: SchedulerLoopService;

  beforeEach(async () => {
    clock = new FakeClock(T0);
    passes = [];
    checks = [];
    failAt = new Set();
    reporting = [];
    const leader = {
      owner: 'o-1',
      onChange: (fn: (leader: boolean) => void) => (leading = fn),
      start: async () => leading(true),
    } as unknown as LeaderElectionService;
    const reconciler = {
      reconcileOnce: async () => {
        const at = clock.now() - T0;
        passes.push(at);
        if (failAt.has(at)) throw new Error('database gone');
      },
      pumpDelayed: async () => [],
      setReporting: (on: boolean) => reporting.push(on),
    } as unknown as ReconcilerService;
    const detector = { check: async () => void checks.push(clock.now() - T0) } as unknown as DueDetectorService;
    const signals = {
      onJobChanged: async () => async () => undefined,
      onDelayDue: async () => async () => undefined,
    } as unknown as JobSignals;
    const registry = {
      addInterval: (_name: string, timer: NodeJS.Timeout) => clearInterval(timer),
      doesExist: () => false,
      deleteInterval: () => undefined,
    } as unknown as SchedulerRegistry;
    const config = {
      namespace: 'ns',
      shape: 'standalone',
      reconcileIntervalMs: INTERVAL_MS,
      triggerTickMs: 100,
      triggerScanIntervalMs: 1000,
      triggerHorizonMs: 10_000,
      misfireThresholdMs: 5000,
      triggerStageLeadMs: 0,
      triggerBatchSize: 100,
    } as AppConfig;
    sut = new SchedulerLoopService(
      leader,
      { release: async () => undefined } as unknown as TriggerService,
      reconciler,
      detector,
      { run: async () => 0 } as unknown as StagedTakeback,
      signals,
      { findDueRefs: async () => [] } as unknown as JobDefinitionRepository,
      { findStaged: async () => [] } as unknown as StagedInstances,
      (metrics = new MetricsService()),
      registry,
      config,
      clock,
    );
    await sut.onApplicationBootstrap();
    await settle();
  });

  afterEach(async () => {
    await sut.beforeApplicationShutdown();
  });

  const runUntil = (ms: number) => advanceSettled(clock, T0 + ms);

  it('should run a pass on taking the lead, then one every interval, each followed by the due check', async () => {
    await runUntil(4 * INTERVAL_MS);
    const expected = [0, 1, 2, 3, 4].map((i) => i * INTERVAL_MS);
    expect(passes).toEqual(expected);
    expect(checks).toEqual(expected);
    expect(clock.pendingCount).toBe(1); // only the next round is armed
  });

  it('should go on with the next rounds after a pass that failed', async () => {
    failAt = new Set([INTERVAL_MS, 2 * INTERVAL_MS]);
    await runUntil(4 * INTERVAL_MS);
    expect(passes).toEqual([0, 1, 2, 3, 4].map((i) => i * INTERVAL_MS));
    expect(checks).toEqual(passes); // the due check still runs after a failed pass
  });

  it('should stop its rounds when it loses the lead, and run them again when it leads again', async () => {
    await runUntil(INTERVAL_MS);
    leading(false);
    await runUntil(3 * INTERVAL_MS);
    expect(passes).toEqual([0, INTERVAL_MS]);
    expect(clock.pendingCount).toBe(0);
    leading(true);
    await settle();
    await runUntil(4 * INTERVAL_MS + INTERVAL_MS / 2);
    expect(passes).toEqual([0, INTERVAL_MS, 3 * INTERVAL_MS, 4 * INTERVAL_MS]);
  });

  it('should turn the leader-only gauges off when it loses the lead, before a pass in flight ends', async () => {
    let open = () => undefined as void;
    const inPass = new Promise<void>((resolve) => (open = resolve));
    const pass = sut['reconciler'].reconcileOnce;
    sut['reconciler'].reconcileOnce = async () => {
      await pass();
      if (clock.now() - T0 === INTERVAL_MS * 2) await inPass;
    };
    await runUntil(2 * INTERVAL_MS);
    metrics.wheelSize.set(3);
    expect(reporting).toEqual([true]);
    leading(false); // the pass at +2 intervals is still running
    expect(reporting).toEqual([true, false]);
    expect((await metrics.wheelSize.get()).values[0].value).toBe(0);
    open();
    await settle();
    expect(reporting).toEqual([true, false]); // the pass ending does not turn them on again
    leading(true);
    expect(reporting).toEqual([true, false, true]);
  });
});
