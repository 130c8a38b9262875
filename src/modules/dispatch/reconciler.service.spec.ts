import { clockAt } from '../../../test/fakes/fake-clock.js';
import { liveNode } from '../../../test/fakes/live-node.js';
import { jest } from '@jest/globals';
import type { AppConfig } from '../../config/index.js';
import type { NodeQueuePort } from '../coordination/index.js';
import type { JobRunMetrics } from '../execution/index.js';
import {
  type CallbackDeliveryRepository,
  type InstanceReads,
  type InstanceTransitions,
  type JobAttemptRepository,
  JobInstance,
  JobInstanceStatus,
  type ReconcileInstances,
  UnitOfWork,
} from '../metadata/index.js';
import { MetricsService } from '../observability/index.js';
import type { Admission } from './admission/index.js';
import type { DispatchService } from './dispatch.service.js';
import type { NodeRegistryService } from './node-registry.service.js';
import type { QuarantineService } from './quarantine.service.js';
import { ReconcilerService } from './reconciler.service.js';
import { TakeBack } from './take-back.js';

const OFFLINE_MS = 15_000;
const INTERVAL_MS = 5_000;
const T0 = 1_800_000_000_000;

/**
 * The offline watch of the reconciler (docs/dispatch.md "Reconciler"): a node that stops beating is declared offline,
 * and its running work routed again, when it crosses NODE_OFFLINE_AFTER_MS — not at the next repair pass, up to
 * RECONCILE_INTERVAL_MS later. Everything around the reconciler is a hand-written fake; time is jest's.
 */
describe('ReconcilerService offline watch', () => {
  /** Last beat of each registered node (the Redis registry). */
  let beats: Map<string, number>;
  let running: JobInstance;
  let log: string[];
  let sut: ReconcilerService;
  let attempts: { start: jest.Mock; finish: jest.Mock };
  let config: AppConfig;

  beforeEach(() => {
    jest.useFakeTimers({ now: T0 });
    beats = new Map([
      ['dead', T0],
      ['alive', T0],
    ]);
    log = [];
    running = Object.assign(new JobInstance(), {
      id: 'i-1',
      status: JobInstanceStatus.RUNNING,
      attempt: 1,
      maxAttempts: 3,
      fencingToken: 1,
      nodeId: 'dead',
      jobId: null,
      maxConcurrency: 0,
      startedAt: T0 - 1000,
    });
    const onNode = (nodeId: string) =>
      nodeId === running.nodeId && running.status === JobInstanceStatus.RUNNING
        ? [Object.assign(new JobInstance(), running)]
        : [];
    const instances = {
      together: async (work: (em: unknown) => Promise<unknown>) => {
        log.push('begin');
        const out = await work('tx');
        log.push('commit');
        return out;
      },
      findPendingDue: async () => [],
      nodesWithWork: async () =>
        running.status === JobInstanceStatus.RUNNING && running.nodeId ? [running.nodeId] : [],
      findOnNode: async (nodeId: string) => onNode(nodeId),
      findExpiredLeases: async () => [],
      findDispatchedRefsBefore: async () => [],
      idsInStatus: async () => new Set(),
      jobsWithWaiting: async () => [],
      transition: async (
        _id: string,
        _from: JobInstanceStatus,
        to: JobInstanceStatus,
        _guard: unknown,
        patch: Partial<JobInstance>,
      ) => {
        Object.assign(running, patch, { status: to });
        log.push(`transition ${to}`);
        return true;
      },
    } as unknown as ReconcileInstances & InstanceReads & InstanceTransitions;
    attempts = {
      start: jest.fn(async () => log.push('attempt start')),
      finish: jest.fn(async () => log.push('attempt finish')),
    };
    const registry = {
      liveNodes: async () =>
        [...beats].filter(([, b]) => b >= Date.now() - OFFLINE_MS).map(([id, b]) => liveNode(id, b)),
      staleNodes: async () =>
        [...beats].filter(([, b]) => b < Date.now() - OFFLINE_MS).map(([id, b]) => liveNode(id, b)),
      invalidate: () => log.push('invalidate'),
      remove: async (nodeId: string) => beats.delete(nodeId),
      disabledApps: async () => [],
    } as unknown as NodeRegistryService;
    const dispatch = {
      dispatchIds: async (ids: string[]) => log.push(`dispatch ${ids.join(',')} at +${Date.now() - T0}`),
    } as unknown as DispatchService;
    const queues = { drainNode: async () => [] } as unknown as NodeQueuePort;
    config = { namespace: 'ns', nodeOfflineAfterMs: OFFLINE_MS, reconcileIntervalMs: INTERVAL_MS } as AppConfig;
    const admission = {
      reassertPage: async () => ({ over: [], next: '' }),
      ended: async () => undefined,
    } as unknown as Admission;
    const quarantine = { screen: async (rows: JobInstance[]) => rows } as unknown as QuarantineService;
    const metrics = new MetricsService();
    const uow = { run: (instances as unknown as { together: UnitOfWork['run'] }).together } as unknown as UnitOfWork;
    const deliveries = { enqueueFinal: async () => 0 } as unknown as CallbackDeliveryRepository;
    const clock = clockAt(() => Date.now());
    const parts = [attempts as unknown as JobAttemptRepository, uow, deliveries, metrics] as const;
    const runs = { finished: () => undefined } as unknown as JobRunMetrics;
    const takeBack = new TakeBack(instances, ...parts, admission, dispatch, quarantine, clock, runs);
    sut = new ReconcilerService(
      instances,
      instances,
      dispatch,
      admission,
      registry,
      quarantine,
      takeBack,
      queues,
      config,
      clock,
    );
  });

  afterEach(async () => {
    await sut.beforeApplicationShutdown();
    jest.useRealTimers();
  });

  /** Passes every INTERVAL_MS from T0 + `phase` to T0 + `passesUntil`, `alive` beating, until T0 + `until`. */
  async function run(phase: number, passesUntil: number, until: number, every = INTERVAL_MS): Promise<void> {
    const pass = () => void (Date.now() - T0 <= passesUntil && sut.reconcileOnce());
    const beat = setInterval(() => beats.has('alive') && beats.set('alive', Date.now()), 1000);
    let passes: NodeJS.Timeout | undefined;
    const first = setTimeout(() => {
      pass();
      passes = setInterval(pass, every);
    }, phase);
    await jest.advanceTimersByTimeAsync(until);
    clearTimeout(first);
    clearInterval(passes);
    clearInterval(beat);
  }

  it("should take a silent node's work back when it crosses the offline threshold, between passes", async () => {
    await run(2000, 60_000, 20_000); // passes at +2 s, +7 s, +12 s, +17 s: the node crosses at +15 s
    expect(log.filter((l) => l.startsWith('dispatch'))).toEqual([`dispatch i-1 at +${OFFLINE_MS + 1}`]);
    expect(running).toMatchObject({ status: JobInstanceStatus.PENDING, attempt: 2, nodeId: null });
    expect(beats.has('dead')).toBe(false);
    expect(beats.has('alive')).toBe(true);
  });

  it("should forget the registry's view before routing again, closing the attempt in one transaction", async () => {
    await run(2000, 60_000, 20_000);
    expect(log.slice(0, 7)).toEqual([
      'invalidate',
      'begin',
      `transition ${JobInstanceStatus.PENDING}`,
      'attempt start',
      'attempt finish',
      'commit',
      `dispatch i-1 at +${OFFLINE_MS + 1}`,
    ]);
    // In the same transaction as the transition: inserted if missing (ignored when the executor wrote it),
    // then closed as NODE_LOST with the token it ran with.
    expect(attempts.start).toHaveBeenCalledWith('i-1', 1, 'dead', 1, T0 - 1000, 'tx');
    expect(attempts.finish).toHaveBeenCalledWith('i-1', 1, 'NODE_LOST', 'NODE_LOST on dead', T0 + OFFLINE_MS + 1, 'tx');
  });

  it("should stop watching once passes stop (another leader): the next leader's passes take over", async () => {
    // Passes at +2 s and +7 s only: the watch may run to +12 s, the node crosses at +15 s.
    await run(2000, 7000, 30_000);
    expect(log.filter((l) => l.startsWith('dispatch'))).toEqual([]);
    expect(running.status).toBe(JobInstanceStatus.RUNNING);
    expect(jest.getTimerCount()).toBe(0);
  });

  it('should not revoke the work of a node missing from the registry (flushed) that beats again in time', async () => {
    beats.clear(); // FLUSHALL: the registry is gone; 'dead' still runs i-1 and beats again 4 s later
    setTimeout(() => beats.set('dead', Date.now()), 4000);
    setInterval(() => beats.has('dead') && beats.set('dead', Date.now()), 1000);
    await run(500, 60_000, 30_000);
    expect(log.filter((l) => l.startsWith('dispatch'))).toEqual([]);
    expect(running.status).toBe(JobInstanceStatus.RUNNING);
  });

  it('should take the work of a node that holds rows but never registers once missing for the threshold', async () => {
    beats.delete('dead');
    // First missed at the pass at +2 s: offline after +17 s, between the passes at +17 s and +22 s.
    await run(2000, 60_000, 30_000);
    expect(log.filter((l) => l.startsWith('dispatch'))).toEqual([`dispatch i-1 at +${2000 + OFFLINE_MS + 1}`]);
    expect(running).toMatchObject({ status: JobInstanceStatus.PENDING, attempt: 2 });
  });

  it('should watch nodes that appear after a pass when passes are further apart than the threshold', async () => {
    config.reconcileIntervalMs = 60_000;
    beats.clear();
    running.nodeId = 'late';
    setTimeout(() => beats.set('late', Date.now()), 1000); // registers after the first pass, beats once, dies
    await run(500, 60_000, 30_000, 60_000);
    expect(log.filter((l) => l.startsWith('dispatch'))).toEqual([`dispatch i-1 at +${1000 + OFFLINE_MS + 1}`]);
  });

  it('should arm nothing while every node beats (no timer between passes)', async () => {
    beats.delete('dead');
    running.status = JobInstanceStatus.SUCCESS;
    await sut.reconcileOnce();
    expect(jest.getTimerCount()).toBe(0);
  });
});
