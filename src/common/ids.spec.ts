import { v7 as uuidv7 } from 'uuid';
import { newId } from './ids.js';

const V7 = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const msOf = (id: string) => parseInt(id.replace(/-/g, '').slice(0, 12), 16);

describe('newId', () => {
  it('should give UUIDv7 ids laid out as the uuid package lays them out, now in their first 48 bits', () => {
    const before = Date.now();
    const id = newId();
    const reference = uuidv7();
    expect(id).toMatch(V7);
    expect(reference).toMatch(V7);
    expect(msOf(id)).toBeGreaterThanOrEqual(before);
    expect(msOf(id)).toBeLessThanOrEqual(Date.now() + 1);
  });

  it('should give strictly increasing, distinct ids within one millisecond and across the random pool', () => {
    const ids = Array.from({ length: 10_000 }, () => newId());
    for (let i = 1; i < ids.length; i++) expect(ids[i] > ids[i - 1]).toBe(true);
    expect(new Set(ids.map((id) => id.slice(-12))).size).toBeGreaterThan(9_900); // random tails
  });
});
