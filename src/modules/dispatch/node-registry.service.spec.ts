import { clockAt } from '../../../test/fakes/fake-clock.js';
import { AppConfig } from '../../config/index.js';
import { type LiveNode, type NodeRegistryPort, REGISTRY_VIEW_MS } from '../coordination/index.js';
import { NodeRegistryService } from './node-registry.service.js';

const node = (nodeId: string, lastBeat: number): LiveNode => ({
  nodeId,
  lastBeat,
  info: { handlers: ['h'], capacity: 1, active: 0, labels: {}, host: 'x', startedAt: 0 },
});

describe('NodeRegistryService.preferFresh', () => {
  const now = 1_000_000;
  const config = { heartbeatIntervalMs: 5000, nodeOfflineAfterMs: 15_000 } as AppConfig;
  const registry = new NodeRegistryService(
    {} as NodeRegistryPort,
    config,
    clockAt(() => now),
    { disabledAmong: async () => new Set<string>(), disabledApps: async () => [] },
  );

  it('should keep only nodes that beat within two heartbeat intervals', () => {
    const nodes = [node('a', now - 1000), node('b', now - 12_000), node('c', now - 10_000)];
    expect(registry.preferFresh(nodes).map((n) => n.nodeId)).toEqual(['a', 'c']);
  });

  it('should fall back to every live node when none is that fresh, so nothing stays unroutable', () => {
    const nodes = [node('a', now - 11_000), node('b', now - 14_000)];
    expect(registry.preferFresh(nodes).map((n) => n.nodeId)).toEqual(['a', 'b']);
  });
});

describe('NodeRegistryService.candidates (routing tenancy, docs/workers.md)', () => {
  const now = 1_000_000;
  const config = { heartbeatIntervalMs: 5000, nodeOfflineAfterMs: 15_000 } as AppConfig;
  const owned = (nodeId: string, appId: string | null | undefined): LiveNode => {
    const n = node(nodeId, now);
    return { ...n, info: { ...n.info, ...(appId === undefined ? {} : { appId }) } };
  };
  const nodes = [owned('exec', null), owned('old-exec', undefined), owned('w-a', 'app-a'), owned('w-b', 'app-b')];
  const registry = new NodeRegistryService(
    { liveNodes: async () => nodes } as unknown as NodeRegistryPort,
    config,
    clockAt(() => now),
    { disabledAmong: async () => new Set<string>(), disabledApps: async () => [] },
  );

  it("should offer an app's work to trusted executors and that app's own workers only", async () => {
    expect((await registry.candidates('h', 'app-a')).map((n) => n.nodeId)).toEqual(['exec', 'old-exec', 'w-a']);
    expect((await registry.candidates('h', 'app-c')).map((n) => n.nodeId)).toEqual(['exec', 'old-exec']);
  });

  it('should offer nothing for a handler no node advertises', async () => {
    expect(await registry.candidates('other', 'app-a')).toEqual([]);
  });
});

describe('NodeRegistryService.liveNodes (the view of REGISTRY_VIEW_MS)', () => {
  const config = { heartbeatIntervalMs: 5000, nodeOfflineAfterMs: 15_000 } as AppConfig;
  function setUp() {
    let now = 1_000_000;
    const reads: Array<(nodes: LiveNode[]) => void> = [];
    const port = {
      liveNodes: () => new Promise<LiveNode[]>((resolve) => reads.push(resolve)),
    } as unknown as NodeRegistryPort;
    const registry = new NodeRegistryService(
      port,
      config,
      clockAt(() => now),
      {
        disabledAmong: async () => new Set<string>(),
        disabledApps: async () => [],
      },
    );
    return { registry, reads, at: (ms: number) => (now = 1_000_000 + ms) };
  }
  const settlesNow = async (p: Promise<unknown>) => {
    let done = false;
    void p.then(() => (done = true));
    for (let i = 0; i < 5; i++) await new Promise((r) => setImmediate(r));
    return done;
  };

  it('should let callers that miss the view share one read', async () => {
    const { registry, reads } = setUp();
    const a = registry.liveNodes();
    const b = registry.candidates('h', 'app');
    expect(reads).toHaveLength(1);
    reads[0]([node('a', 1_000_000)]);
    expect((await a).map((n) => n.nodeId)).toEqual(['a']);
    expect((await b).map((n) => n.nodeId)).toEqual(['a']);
  });

  it('should answer from a view past half its age at once and renew it meanwhile (deliveries never wait)', async () => {
    const { registry, reads, at } = setUp();
    const first = registry.liveNodes();
    reads[0]([node('a', 1_000_000)]);
    await first;
    at(REGISTRY_VIEW_MS * 0.6);
    expect(await settlesNow(registry.liveNodes())).toBe(true);
    expect(await settlesNow(registry.liveNodes())).toBe(true);
    expect(reads).toHaveLength(2);
    reads[1]([node('b', 1_000_000)]);
    await new Promise((r) => setImmediate(r));
    at(REGISTRY_VIEW_MS * 1.2);
    const late = registry.liveNodes();
    expect(await settlesNow(late)).toBe(true);
    expect((await late).map((n) => n.nodeId)).toEqual(['b']);
  });

  it('should wait for a read once the view is REGISTRY_VIEW_MS old, and after invalidate()', async () => {
    const { registry, reads, at } = setUp();
    const first = registry.liveNodes();
    reads[0]([node('a', 1_000_000)]);
    await first;
    registry.invalidate();
    expect(await settlesNow(registry.liveNodes())).toBe(false);
    reads[1]([node('b', 1_000_000)]);
    await new Promise((r) => setImmediate(r));
    at(REGISTRY_VIEW_MS);
    expect(await settlesNow(registry.liveNodes())).toBe(false);
  });
});
