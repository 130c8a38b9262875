import { FakeClock } from '../../../../test/fakes/fake-clock.js';
import { gate } from '../../../../test/fakes/settle.js';
import { liveNode } from '../../../../test/fakes/live-node.js';
import type { NodeQueuePort } from '../../coordination/index.js';
import type { NodeRegistryService } from '../../dispatch/index.js';
import { MetricsService } from '../../observability/index.js';
import { LeaderGauges } from './leader-gauges.js';

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
    metrics = new MetricsService();
    sut = new LeaderGauges(registry, queues, metrics, clock);
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
});
