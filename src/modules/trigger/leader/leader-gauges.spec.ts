import { FakeClock } from '../../../../test/fakes/fake-clock.js';
import { gate } from '../../../../test/fakes/settle.js';
import { liveNode } from '../../../../test/fakes/live-node.js';
import type { NodeQueuePort } from '../../coordination/index.js';
import type { NodeRegistryService, UnadvertisedWait, UnadvertisedWaits } from '../../dispatch/index.js';
import { MetricsService } from '../../observability/index.js';
import type { AppConfig } from '../../../config/index.js';
import { LeaderGauges, waitingByHandler } from './leader-gauges.js';

const T0 = Date.UTC(2030, 0, 1);
const OFFLINE_MS = 15_000;

/** The leader-only gauges over a stub registry (last beats by node) and stub queue depths. */
describe(LeaderGauges.name, () => {
  let clock: FakeClock;
  let beats: Map<string, number>;
  let metrics: MetricsService;
  /** While set, queue depth reads wait for it (a refresh in flight). */
  let depthsHeld: Promise<void> | null;
  let sut: LeaderGauges;
  /** What the scan answers (or throws), and the namespace and time it was asked for. */
  let waits: UnadvertisedWait[] | Error;
  let asked: Array<[string, number]>;

  beforeEach(() => {
    clock = new FakeClock(T0);
    beats = new Map([
      ['a', T0],
      ['b', T0 - 20_000],
    ]);
    depthsHeld = null;
    const nodes = (live: boolean) =>
      [...beats].filter(([, b]) => b >= clock.now() - OFFLINE_MS === live).map(([id, b]) => liveNode(id, b));
    const registry = {
      liveNodes: async () => nodes(true),
      staleNodes: async () => nodes(false),
    } as unknown as NodeRegistryService;
    const queues = {
      queueDepth: async (nodeId: string) => {
        await depthsHeld;
        return { ready: nodeId === 'a' ? 3 : 0, processing: 1 };
      },
    } as unknown as NodeQueuePort;
    waits = [];
    asked = [];
    const scan = {
      scan: async (ns: string, now: number) => {
        asked.push([ns, now]);
        if (waits instanceof Error) throw waits;
        return waits;
      },
    } as unknown as UnadvertisedWaits;
    metrics = new MetricsService();
    sut = new LeaderGauges(registry, queues, scan, metrics, { namespace: 'ns-1' } as AppConfig, clock);
  });

  async function gauges() {
    const [live, depths, ages] = await Promise.all([
      metrics.liveExecutors.get(),
      metrics.queueDepth.get(),
      metrics.executorHeartbeatAge.get(),
    ]);
    return {
      live: live.values[0]?.value ?? 0,
      depths: Object.fromEntries(depths.values.map((v) => [`${v.labels.node}/${v.labels.list}`, v.value])),
      ages: Object.fromEntries(ages.values.map((v) => [v.labels.node, v.value])),
    };
  }

  const waiting = async () =>
    Object.fromEntries((await metrics.tasksWaitingUnadvertised.get()).values.map((v) => [v.labels.handler, v.value]));
  const wait = (appId: string, handler: string, count: number): UnadvertisedWait => ({
    appId,
    handler,
    count,
    oldestCreatedAt: T0,
  });

  it("should set the live count, each live node's queue depths and every registered node's heartbeat age", async () => {
    clock.setNow(T0 + 2000);
    await sut.refresh(new AbortController().signal);
    expect(await gauges()).toEqual({
      live: 1,
      depths: { 'a/ready': 3, 'a/processing': 1 },
      ages: { a: 2, b: 22 },
    });
  });

  it('should drop a node removed from the registry at the next refresh', async () => {
    await sut.refresh(new AbortController().signal);
    beats.delete('b');
    await sut.refresh(new AbortController().signal);
    expect(Object.keys((await gauges()).ages)).toEqual(['a']);
  });

  it('should read 0 and no per-node series once cleared, also when a refresh in flight ends after', async () => {
    await sut.refresh(new AbortController().signal);
    const lead = new AbortController();
    const held = gate();
    depthsHeld = held.wait;
    const refresh = sut.refresh(lead.signal); // waits on the queue depth reads
    lead.abort(); // the lead is lost meanwhile
    sut.clear();
    held.open();
    await refresh;
    expect(await gauges()).toEqual({ live: 0, depths: {}, ages: {} });
  });

  it('should set the waiting instances per handler, summed over apps, from a scan of its namespace', async () => {
    waits = [wait('a1', 'report', 3), wait('a2', 'report', 2), wait('a1', 'mail', 1)];
    clock.setNow(T0 + 5);
    await sut.refresh(new AbortController().signal);
    expect(asked).toEqual([['ns-1', T0 + 5]]);
    expect(await waiting()).toEqual({ report: 5, mail: 1 });
    waits = [wait('a1', 'mail', 4)];
    await sut.refresh(new AbortController().signal);
    expect(await waiting()).toEqual({ mail: 4 }); // a handler served again drops out
  });

  it('should keep the waiting gauge when a scan fails, and clear it with the lead', async () => {
    waits = [wait('a1', 'report', 3)];
    await sut.refresh(new AbortController().signal);
    waits = new Error('database gone');
    clock.setNow(T0 + 1000);
    await sut.refresh(new AbortController().signal);
    expect(await waiting()).toEqual({ report: 3 });
    expect((await gauges()).ages).toEqual({ a: 1, b: 21 }); // the other gauges moved on
    sut.clear();
    expect(await waiting()).toEqual({});
  });
});

describe(waitingByHandler.name, () => {
  const w = (handler: string, count: number) => ({ appId: 'a', handler, count, oldestCreatedAt: 0 });

  it('should keep the 50 handlers with most waiting instances and sum the rest as other', () => {
    const many = Array.from({ length: 60 }, (_, i) => w(`h${String(i).padStart(2, '0')}`, 100 - i));
    const out = waitingByHandler([...many, w('h00', 1000)]);
    expect(out.size).toBe(51);
    expect(out.get('h00')).toBe(1100);
    expect(out.get('h49')).toBe(51);
    expect(out.has('h50')).toBe(false);
    expect(out.get('other')).toBe([50, 49, 48, 47, 46, 45, 44, 43, 42, 41].reduce((a, b) => a + b, 0));
  });

  it('should rank ties by name and add a handler named other to the sum of the rest', () => {
    expect([...waitingByHandler([w('b', 2), w('a', 2), w('c', 2), w('other', 1)], 2)]).toEqual([
      ['a', 2],
      ['b', 2],
      ['other', 3],
    ]);
  });
});
