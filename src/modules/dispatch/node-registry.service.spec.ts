import { clockAt } from '../../../test/fakes/fake-clock.js';
import { AppConfig } from '../../config/index.js';
import type { LiveNode, NodeRegistryPort } from '../coordination/index.js';
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
