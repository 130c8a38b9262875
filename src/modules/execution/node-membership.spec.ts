import { FakeClock } from '../../../test/fakes/fake-clock.js';
import type { AppConfig } from '../../config/index.js';
import type { NodeAdvert, NodeRegistryPort } from '../coordination/index.js';
import type { ExecutorNode, ExecutorNodeRepository } from '../metadata/index.js';
import type { HandlerRegistry } from './handler-registry.service.js';
import { NodeMembership } from './node-membership.js';

const T0 = Date.UTC(2026, 11, 1, 12, 0, 0);
const HEARTBEAT_MS = 3_000;

/** NodeMembership on a FakeClock: the node id, the heartbeat cadence and the draining advert. */
describe('NodeMembership', () => {
  let clock: FakeClock;
  let beats: Array<{ at: number; advert: NodeAdvert }>;
  let rows: ExecutorNode[];
  let dbClock: { offsetMs: number | null };
  let sut: NodeMembership;

  beforeEach(() => {
    clock = new FakeClock(T0);
    beats = [];
    rows = [];
    dbClock = { offsetMs: null };
    const handlers = { names: () => ['h1', 'h2'] } as unknown as HandlerRegistry;
    const nodes = {
      countWithPrefix: async () => 1,
      tryInsert: async (node: ExecutorNode) => (node.nodeId.endsWith('-2') ? false : (rows.push(node), true)),
      markStopped: async () => undefined,
    } as unknown as ExecutorNodeRepository;
    const coordination = {
      heartbeat: async (_id: string, advert: NodeAdvert, at: number) => void beats.push({ at, advert }),
      removeNode: async () => undefined,
    } as unknown as NodeRegistryPort;
    const config = { nodeName: 'exec a', executorConcurrency: 4, heartbeatIntervalMs: HEARTBEAT_MS } as AppConfig;
    sut = new NodeMembership(handlers, nodes, coordination, config, clock, dbClock);
  });

  it('should register under the first free sequence of the day', async () => {
    expect(sut.registered).toBe(false);
    const id = await sut.register();
    expect(id).toMatch(/^exec-a-[0-9a-f]{6}-20261201-3$/);
    expect(sut.nodeId).toBe(id);
    expect(rows[0]).toMatchObject({ host: 'exec-a', handlers: ['h1', 'h2'], capacity: 4, startedAt: T0 });
  });

  it('should beat every HEARTBEAT_INTERVAL_MS, one timer at a time, until stopped', async () => {
    await sut.register();
    let n = 0;
    sut.startBeating(async () => void n++);
    clock.advanceTo(T0 + 4 * HEARTBEAT_MS);
    expect(n).toBe(4);
    expect(clock.fired.map((t) => t - T0)).toEqual([3_000, 6_000, 9_000, 12_000]);
    expect(clock.maxPending).toBe(1);
    await sut.stop();
    expect(clock.pendingCount).toBe(0);
  });

  it('should advertise its handlers, and none (label draining) while it drains', async () => {
    await sut.register();
    await sut.heartbeat(2, false);
    await sut.heartbeat(1, true);
    expect(beats.map((b) => [b.advert.handlers, b.advert.labels, b.advert.active])).toEqual([
      [['h1', 'h2'], {}, 2],
      [[], { draining: 'true' }, 1],
    ]);
  });

  it('should advertise its last clock offset against the database, null before the first check', async () => {
    await sut.register();
    await sut.heartbeat(0, false);
    dbClock.offsetMs = -1234;
    await sut.heartbeat(0, false);
    expect(beats.map((b) => b.advert.clockOffsetMs)).toEqual([null, -1234]);
  });
});

/** Node ids of executors that share no executor_node table (standalone nodes) started the same day. */
describe('NodeMembership ids without a shared registry', () => {
  it('should give two executors of one host, each with its own store, different ids', async () => {
    const config = { nodeName: 'vm', executorConcurrency: 1, heartbeatIntervalMs: 1000 } as AppConfig;
    const start = () => {
      const nodes = {
        countWithPrefix: async () => 0,
        tryInsert: async () => true,
      } as unknown as ExecutorNodeRepository;
      const handlers = { names: () => ['h'] } as unknown as HandlerRegistry;
      const never = { offsetMs: null };
      return new NodeMembership(handlers, nodes, {} as NodeRegistryPort, config, new FakeClock(T0), never).register();
    };
    const [a, b] = [await start(), await start()];
    expect(a).toMatch(/^vm-[0-9a-f]{6}-20261201-1$/);
    expect(b).toMatch(/^vm-[0-9a-f]{6}-20261201-1$/);
    expect(a).not.toBe(b);
  });
});
