import { newId } from './ids.js';

describe('newId', () => {
  it('should make RFC 9562 version 7 ids, unique and strictly increasing within a process', () => {
    const ids = Array.from({ length: 50_000 }, () => newId());
    for (const id of ids) expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(new Set(ids).size).toBe(ids.length);
    for (let i = 1; i < ids.length; i++) expect(ids[i] > ids[i - 1]).toBe(true);
  });

  it('should carry the current time in its first 48 bits (ms)', () => {
    const before = Date.now();
    const ms = parseInt(newId().replace(/-/g, '').slice(0, 12), 16);
    expect(ms).toBeGreaterThanOrEqual(before);
    expect(ms).toBeLessThanOrEqual(Date.now() + 1);
  });

  it('should not repeat random bits across a refill of its pool', () => {
    const tails = Array.from({ length: 1000 }, () => newId().slice(-12));
    expect(new Set(tails).size).toBe(tails.length);
  });
});
