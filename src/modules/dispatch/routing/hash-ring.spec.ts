import { SchedulerError } from '../../../common/index.js';
import { DEFAULT_VIRTUAL_NODES, HashRing, ringPosition } from './hash-ring.js';

const KEYS = Array.from({ length: 10_000 }, (_, i) => `key-${i}`);
const nodes = (n: number): string[] => Array.from({ length: n }, (_, i) => `node-${i + 1}`);
const placeAll = (ring: HashRing): string[] => KEYS.map((k) => ring.nodeFor(k));

describe(HashRing.name, () => {
  it('should derive positions from the first 8 bytes of MD5, big-endian', () => {
    // md5('') = d41d8cd98f00b204e9800998ecf8427e
    expect(ringPosition('')).toBe(0xd41d8cd98f00b204n);
  });

  it('should place 10,000 keys within ±35 % of the mean on each of 5 nodes', () => {
    const sut = new HashRing(nodes(5));
    const counts = new Map<string, number>();
    for (const n of placeAll(sut)) counts.set(n, (counts.get(n) ?? 0) + 1);
    expect([...counts.keys()].sort()).toEqual(nodes(5));
    for (const c of counts.values()) {
      expect(c).toBeGreaterThanOrEqual(2000 * 0.65);
      expect(c).toBeLessThanOrEqual(2000 * 1.35);
    }
  });

  it('should move about 1/6 of the keys, all to the new node, when a 6th node joins 5', () => {
    const before = placeAll(new HashRing(nodes(5)));
    const after = placeAll(new HashRing(nodes(6)));
    const moved = KEYS.map((_, i) => i).filter((i) => before[i] !== after[i]);
    expect(moved.length / KEYS.length).toBeGreaterThanOrEqual(0.1);
    expect(moved.length / KEYS.length).toBeLessThanOrEqual(0.25);
    expect(new Set(moved.map((i) => after[i]))).toEqual(new Set(['node-6']));
  });

  it('should move only the keys of the node that left when one of 5 is removed', () => {
    const before = placeAll(new HashRing(nodes(5)));
    const after = placeAll(new HashRing(nodes(5).filter((n) => n !== 'node-3')));
    const moved = KEYS.map((_, i) => i).filter((i) => before[i] !== after[i]);
    expect(moved.length).toBeGreaterThan(0);
    expect(moved.every((i) => before[i] === 'node-3')).toBe(true);
    expect(after).not.toContain('node-3');
  });

  it('should be the same ring whatever the order of, or duplicates in, the node ids', () => {
    const sut = new HashRing(['node-3', 'node-1', 'node-2', 'node-1']);
    expect(sut.nodeIds).toEqual(['node-1', 'node-2', 'node-3']);
    expect(placeAll(sut)).toEqual(placeAll(new HashRing(nodes(3))));
  });

  it('should send every key to the only node of a one-node ring', () => {
    const sut = new HashRing(['solo'], 1);
    expect(new Set(placeAll(sut))).toEqual(new Set(['solo']));
  });

  it('should default to 160 virtual nodes per node', () => {
    expect(new HashRing(['a']).virtualNodes).toBe(DEFAULT_VIRTUAL_NODES);
    expect(DEFAULT_VIRTUAL_NODES).toBe(160);
  });

  it('should refuse an empty node set or a non-positive virtual node count', () => {
    expect(() => new HashRing([])).toThrow(SchedulerError);
    expect(() => new HashRing(['a'], 0)).toThrow(/virtual nodes/);
    expect(() => new HashRing(['a'], 1.5)).toThrow(/virtual nodes/);
  });
});
