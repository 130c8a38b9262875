import { SchedulerRegistry } from '@nestjs/schedule';
import { FakeClock } from '../../../../test/fakes/fake-clock.js';
import { liveNode } from '../../../../test/fakes/live-node.js';
import { advanceSettled, gate, settle } from '../../../../test/fakes/settle.js';
import type { AppConfig } from '../../../config/index.js';
import type { NodeQueuePort } from '../../coordination/index.js';
import type {
  DelayPump,
  NodeRegistryService,
  ReconcilerService,
  Release,
  UnadvertisedWaits,
} from '../../dispatch/index.js';
import type {
  CallbackDeliveryRepository,
  DueRef,
  IdempotencyKeyRepository,
  InstanceRetention,
  JobAttemptRepository,
  JobDefinitionRepository,
  JobLogRepository,
  StagedInstances,
} from '../../metadata/index.js';
import { MetricsService } from '../../observability/index.js';
import { Tracing } from '../../tracing/index.js';
import type { DueDetectorService } from '../due-detector.service.js';
import type { JobSignals } from '../job-signals.service.js';
import type { LeaderElectionService } from '../leader-election.service.js';
import { RetentionService } from '../retention.service.js';
import type { StagedTakeback } from '../staged-takeback.js';
import type { TriggerService } from '../trigger.service.js';
import { LeaderDuties } from './leader-duties.service.js';
import { LeaderGauges } from './leader-gauges.js';
import { LeaderWheels } from './leader-wheel.js';

const T0 = Date.UTC(2030, 0, 1);
const SCAN_MS = 1000;
const RECONCILE_MS = 5000;
const RETENTION_MS = 4000;

/** Work the stubs hold until the test opens it, by name (`takeback`, `load`, `reconcile`, `depths`, …). */
const gates = new Map<string, { wait: Promise<void>; open: () => void }>();
function hold(name: string): () => void {
  const held = gate();
  const open = () => {
    gates.delete(name);
    held.open();
  };
  gates.set(name, { wait: held.wait, open });
  return open;
}

/**
 * The leader's duties on a hand-driven clock: cadences, start order, wake-ups, losing the lead mid-duty, shutdown.
 * The services doing the work are stubs writing `<work>@<ms since T0>`; the wheel, the gauges, retention's
 * enabled rule and SchedulerRegistry are real.
 */
const NO_TRACING = new Tracing({ tracing: { tracesUrl: null, serviceName: 'test' } });

describe(LeaderDuties.name, () => {
  let clock: FakeClock;
  let log: string[];
  let leading: (leader: boolean) => void;
  let jobChanged: () => void;
  let delayDue: () => void;
  /** What the next page scan finds. */
  let due: DueRef[];
  /** What the next pump stages. */
  let pumped: Release[];
  let metrics: MetricsService;
  let registry: SchedulerRegistry;
  let sut: LeaderDuties;

  const at = () => clock.now() - T0;
  const record = async (what: string) => {
    log.push(`${what}@${at()}`);
    await gates.get(what.split(' ')[0])?.wait;
  };
  const times = (what: string) => log.filter((l) => l.split('@')[0] === what).map((l) => Number(l.split('@')[1]));
  const runUntil = (ms: number) => advanceSettled(clock, T0 + ms);

  function build(retention = { finishedMs: 1, logsMs: 0 }): LeaderDuties {
    const config = {
      namespace: 'ns',
      shape: 'standalone',
      triggerTickMs: 1,
      triggerScanIntervalMs: SCAN_MS,
      triggerHorizonMs: 10_000,
      triggerStageLeadMs: 0,
      triggerBatchSize: 100,
      misfireThresholdMs: 5000,
      reconcileIntervalMs: RECONCILE_MS,
      retention: { ...retention, intervalMs: RETENTION_MS, batch: 10 },
    } as AppConfig;
    const leader = {
      onChange: (fn: (l: boolean) => void) => (leading = fn),
      start: async () => leading(true),
    } as unknown as LeaderElectionService;
    const trigger = {
      // Each fire writes one row, staged for release at its fire time.
      fireRefs: async (refs: DueRef[]) => {
        await record(`fire ${refs.map((r) => r.id).join(',')}`);
        const releases = refs.map((r) => ({ id: `${r.id}-row`, appId: 'a', at: r.next, nodeId: 'n' }));
        return { created: refs.length, next: [], releases, fired: [] };
      },
      release: (fires: Release[]) => record(`release ${fires.map((f) => f.id).join(',')}`),
      deliverDelayed: async () => undefined,
    } as unknown as TriggerService;
    const jobs = { findDueRefs: async () => (await record('load'), due) } as unknown as JobDefinitionRepository;
    const staged = { findStaged: async () => (await record('adopt'), []) } as unknown as StagedInstances;
    const nodes = {
      liveNodes: async () => [liveNode('a', T0)],
      staleNodes: async () => [],
    } as unknown as NodeRegistryService;
    const queues = {
      queueDepth: async () => (await record('depths'), { ready: 2, processing: 1 }),
    } as unknown as NodeQueuePort;
    const rows = { finishedBefore: async () => (await record('retention'), []) } as unknown as InstanceRetention;
    const none = {} as CallbackDeliveryRepository & JobLogRepository & JobAttemptRepository & IdempotencyKeyRepository;
    const signals = {
      onJobChanged: async (fn: () => void) => ((jobChanged = fn), async () => undefined),
      onDelayDue: async (fn: () => void) => ((delayDue = fn), async () => undefined),
    } as unknown as JobSignals;
    const takeback = { run: () => record('takeback') } as unknown as StagedTakeback;
    const delayPump = { pumpDelayed: async () => (await record('pump'), pumped) } as unknown as DelayPump;
    return (sut = new LeaderDuties(
      leader,
      new LeaderWheels(trigger, jobs, staged, takeback, delayPump, metrics, config, clock, NO_TRACING),
      { reconcileOnce: () => record('reconcile') } as unknown as ReconcilerService,
      { check: async (since: number) => record(`detect since ${since - T0}`) } as unknown as DueDetectorService,
      new LeaderGauges(nodes, queues, { scan: async () => [] } as unknown as UnadvertisedWaits, metrics, config, clock),
      new RetentionService(rows, none, none, none, none, metrics, config, clock),
      signals,
      registry,
      config,
      clock,
    ));
  }

  const liveGauge = async () => (await metrics.liveExecutors.get()).values[0]?.value ?? 0;
  const wheelGauge = async () => (await metrics.wheelSize.get()).values[0]?.value ?? 0;

  beforeEach(() => {
    clock = new FakeClock(T0);
    log = [];
    due = [];
    pumped = [];
    metrics = new MetricsService();
    registry = new SchedulerRegistry();
  });

  afterEach(async () => {
    for (const { open } of [...gates.values()]) open();
    await sut.beforeApplicationShutdown();
  });

  const lead = async () => {
    await build().onApplicationBootstrap();
    await settle();
  };

  it('should run each duty from the start of the lead at its cadence, every timer listed by name', async () => {
    await lead();
    await runUntil(10_000);
    expect(times('load')).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10].map((i) => i * SCAN_MS));
    expect(times('pump')).toEqual(Array.from({ length: 50 }, (_, i) => (i + 1) * 200));
    expect(times('reconcile')).toEqual([0, RECONCILE_MS, 2 * RECONCILE_MS]);
    expect(times('detect since 0')).toEqual([0, RECONCILE_MS, 2 * RECONCILE_MS]);
    expect(times('depths')).toEqual([0, RECONCILE_MS, 2 * RECONCILE_MS]);
    expect(times('retention')).toEqual([RETENTION_MS, 2 * RETENTION_MS]);
    expect(registry.getTimeouts().sort()).toEqual(
      ['due-detector', 'gauges', 'load', 'pump', 'reconcile', 'retention'].map((d) => `tw-leader-${d}`),
    );
    expect(clock.pendingCount).toBe(6);
  });

  it('should take back, adopt and load before the first repair pass and due check, however long it takes', async () => {
    const open = hold('takeback');
    await lead();
    await runUntil(2 * RECONCILE_MS);
    const startup = ['takeback', 'adopt', 'load', 'reconcile', 'detect since 0'];
    const ordered = () => log.filter((l) => startup.includes(l.split('@')[0]));
    expect(ordered()).toEqual(['takeback@0']); // the gauges and the pump meanwhile: they wait for nothing
    open();
    await settle();
    expect(ordered()).toEqual(['takeback@0', ...startup.slice(1).map((w) => `${w}@${2 * RECONCILE_MS}`)]);
  });

  it('should fire a job from the wheel at its time, on the Clock, and release what was staged then', async () => {
    due = [{ id: 'j1', next: T0 + 1500, stage: false }];
    await lead();
    expect(sut.wheelSize).toBe(1);
    expect(registry.getTimeouts()).toContain('tw-leader-wheel');
    await runUntil(1499);
    expect(times('fire j1')).toEqual([]);
    await runUntil(1500);
    expect(times('fire j1')).toEqual([1500]);
    expect(times('release j1-row')).toEqual([1500]);
    expect(sut.wheelSize).toBe(0);
  });

  it('should not overlap a slow load, and load exactly once more after one woken during its run', async () => {
    await lead();
    await runUntil(SCAN_MS - 1);
    const open = hold('load');
    await runUntil(SCAN_MS);
    jobChanged();
    jobChanged();
    await runUntil(3 * SCAN_MS + 500); // the rounds at 2 s and 3 s come while it runs
    jobChanged();
    open();
    await settle();
    expect(times('load')).toEqual([0, SCAN_MS, 3 * SCAN_MS + 500]);
    await runUntil(4 * SCAN_MS);
    expect(times('load')).toEqual([0, SCAN_MS, 3 * SCAN_MS + 500, 4 * SCAN_MS]);
  });

  it('should pump at once on a delay-due wake-up, between its rounds', async () => {
    await lead();
    await runUntil(250);
    delayDue();
    await settle();
    await runUntil(400);
    expect(times('pump')).toEqual([200, 250, 400]);
  });

  it('should drop what a duty in flight finishes after the lead is lost: no gauges, no wheel, no rounds', async () => {
    await lead();
    await runUntil(RECONCILE_MS - 1);
    const openDepths = hold('depths');
    const openLoad = hold('load');
    await runUntil(RECONCILE_MS); // a gauge refresh and a page scan are in flight
    due = [{ id: 'j1', next: T0 + 7000, stage: false }];
    leading(false);
    expect([await liveGauge(), await wheelGauge(), registry.getTimeouts(), clock.pendingCount]).toEqual([0, 0, [], 0]);
    openDepths();
    openLoad();
    await settle();
    expect([await liveGauge(), sut.wheelSize, clock.pendingCount]).toEqual([0, 0, 0]);
    const before = log.length;
    await runUntil(30_000);
    expect(log.length).toBe(before);
  });

  it('should start cleanly when it leads again: a takeback and first load, rounds from the new start', async () => {
    await lead();
    await runUntil(2500);
    leading(false);
    await runUntil(7000);
    log = [];
    due = [{ id: 'j2', next: T0 + 9000, stage: false }];
    leading(true);
    await settle();
    expect(log.sort()).toEqual(
      ['adopt', 'depths', 'detect since 7000', 'load', 'reconcile', 'takeback'].map((w) => `${w}@7000`),
    );
    expect([sut.wheelSize, await liveGauge()]).toEqual([1, 1]);
    await runUntil(9000);
    expect(times('load')).toEqual([7000, 8000, 9000]);
    expect(times('fire j2')).toEqual([9000]);
  });

  it("should do a regained lead's takeback and first load after a scan of the lost lead still running", async () => {
    await lead();
    await runUntil(SCAN_MS - 1);
    const openLoad = hold('load');
    await runUntil(SCAN_MS);
    leading(false);
    clock.setNow(T0 + 1500);
    leading(true);
    await settle();
    expect(times('takeback')).toEqual([0]); // the old scan still runs: the new lead's first load waits
    openLoad();
    await settle();
    expect(times('takeback')).toEqual([0, 1500]);
    expect(log.filter((l) => /^(adopt|load|reconcile)/.test(l)).slice(-3)).toEqual([
      'adopt@1500',
      'load@1500',
      'reconcile@1500',
    ]);
  });

  it("should keep what a run of the lost lead stages off the new lead's wheel, skipping rounds meanwhile", async () => {
    await lead();
    await runUntil(199);
    const openPump = hold('pump');
    await runUntil(200);
    leading(false);
    clock.setNow(T0 + 300);
    leading(true);
    await settle();
    pumped = [{ id: 'd1', appId: 'a', at: T0 + 5000, priority: 3, nodeId: 'n' }];
    await runUntil(500); // the new lead's round at +500 comes while the old pump runs
    openPump();
    await settle();
    expect(sut.wheelSize).toBe(0); // what the old pump staged went to the old, closed wheel
    pumped = [];
    await runUntil(700);
    expect(times('pump')).toEqual([200, 700]);
  });

  it('should wait on shutdown for a running duty and a release in flight before it resolves', async () => {
    due = [{ id: 'j1', next: T0 + 100, stage: false }];
    await lead();
    due = []; // fired, the job's next fire is past the horizon
    const openRelease = hold('release');
    await runUntil(RECONCILE_MS - 1);
    const openReconcile = hold('reconcile');
    await runUntil(RECONCILE_MS);
    expect([times('release j1-row'), times('reconcile')]).toEqual([[100], [0, RECONCILE_MS]]);
    let stopped = false;
    const shutdown = sut.beforeApplicationShutdown().then(() => (stopped = true));
    await settle();
    openReconcile();
    await settle();
    expect(stopped).toBe(false);
    openRelease();
    await shutdown;
  });

  it('should run no retention when it has nothing to purge', async () => {
    await build({ finishedMs: 0, logsMs: 0 }).onApplicationBootstrap();
    await runUntil(3 * RETENTION_MS);
    expect(times('retention')).toEqual([]);
    expect(registry.getTimeouts()).not.toContain('tw-leader-retention');
  });
});
