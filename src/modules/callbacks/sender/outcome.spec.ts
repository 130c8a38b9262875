import { FakeClock } from '../../../../test/fakes/fake-clock.js';
import { pairKey, pairOf, pickClaims } from './claim-share.js';
import { classifyTry, retryAfterMs, retryWaitMs } from './outcome.js';

const settings = { retryDelaysMs: [5_000, 30_000, 120_000, 600_000, 1_800_000] };
const answer = (status: number, retryAfter?: string) => ({ kind: 'answer' as const, status, retryAfter });

describe('callback try outcome (docs/callbacks.md "Outcome of a try")', () => {
  it.each([200, 201, 204, 299])('%i is delivered and the host alive', (s) => {
    expect(classifyTry(answer(s), 1, settings, 0)).toMatchObject({ outcome: 'delivered', host: 'alive' });
  });

  it.each([301, 302, 304, 400, 401, 403, 404, 410, 422])('%i fails at once', (s) => {
    const o = classifyTry(answer(s), 1, settings, 0);
    expect(o).toMatchObject({ outcome: 'failed', statusCode: s, error: `HTTP ${s}` });
    expect(o.host).toBe(s >= 400 ? 'alive' : null);
  });

  it.each([408, 429, 500, 502, 503, 504])('%i is retried after the first wait', (s) => {
    expect(classifyTry(answer(s), 1, settings, 0)).toMatchObject({ outcome: 'retry', waitMs: 5_000 });
  });

  it('a timeout or network error is a host failure, retried', () => {
    const o = classifyTry({ kind: 'error', message: 'ETIMEDOUT: no answer after 3000 ms' }, 2, settings, 0);
    expect(o).toEqual({
      outcome: 'retry',
      waitMs: 30_000,
      host: 'failure',
      statusCode: null,
      error: 'ETIMEDOUT: no answer after 3000 ms',
    });
  });

  it('an egress refusal is final and says nothing of the host', () => {
    const o = classifyTry({ kind: 'refused', message: 'egress refused: 10.0.0.1:80' }, 1, settings, 0);
    expect(o).toMatchObject({ outcome: 'failed', host: null, error: 'EGRESS_REFUSED: egress refused: 10.0.0.1:80' });
  });

  it('follows the retry schedule, then fails after the last wait', () => {
    const clock = new FakeClock(1_000_000);
    const tries: number[] = [];
    let next = clock.now();
    for (let tries_ = 1; ; tries_++) {
      clock.setNow(next);
      tries.push(clock.now());
      const o = classifyTry(answer(500), tries_, settings, clock.now());
      if (o.outcome !== 'retry') {
        expect(o.outcome).toBe('failed');
        break;
      }
      next = clock.now() + o.waitMs!;
    }
    const gaps = tries.slice(1).map((t, i) => t - tries[i]);
    expect(gaps).toHaveLength(settings.retryDelaysMs.length);
    gaps.forEach((g, i) => expect(Math.abs(g - settings.retryDelaysMs[i])).toBeLessThanOrEqual(1));
  });

  it('429 and 503 wait Retry-After, capped at the longest configured wait; other codes ignore it', () => {
    expect(classifyTry(answer(429, '7'), 1, settings, 0).waitMs).toBe(7_000);
    expect(classifyTry(answer(503, '99999'), 1, settings, 0).waitMs).toBe(1_800_000);
    expect(classifyTry(answer(500, '7'), 1, settings, 0).waitMs).toBe(5_000);
    expect(classifyTry(answer(429, 'soon'), 1, settings, 0).waitMs).toBe(5_000);
    expect(classifyTry(answer(429, '7'), 6, settings, 0).outcome).toBe('failed');
  });

  describe('retryAfterMs', () => {
    const now = Date.parse('2026-12-01T10:00:00Z');
    it.each([
      ['0', 0],
      ['120', 120_000],
      [' 3 ', 3_000],
      ['Tue, 01 Dec 2026 10:00:30 GMT', 30_000],
      ['Tue, 01 Dec 2026 09:00:00 GMT', 0],
      ['100000', 600_000],
    ])('%j → %i ms', (v, ms) => expect(retryAfterMs(v, now, 600_000)).toBe(ms));
    it.each([undefined, '', '-1', '1.5', 'tomorrow', '5s'])('%j is unreadable', (v) =>
      expect(retryAfterMs(v, now, 600_000)).toBeNull(),
    );
  });

  it('retryWaitMs: one wait per retry, none after the last', () => {
    expect([1, 2, 3].map((n) => retryWaitMs(n, [1, 2]))).toEqual([1, 2, null]);
    expect(retryWaitMs(1, [])).toBeNull();
  });
});

describe('pickClaims (docs/callbacks.md "Pool")', () => {
  const rows = (host: string, n: number, appId = 'app') =>
    Array.from({ length: n }, (_, i) => ({ id: `${appId}@${host}-${i}`, appId, host }));

  it("a host's backlog takes only its share; the rest of the room goes to other hosts", () => {
    const candidates = [...rows('a:80', 50), ...rows('b:80', 3), ...rows('c:443', 2)];
    const { ids, filled } = pickClaims(candidates, 10, () => 4);
    expect(ids.filter((i) => i.startsWith('app@a:80'))).toHaveLength(4);
    expect(ids).toEqual(expect.arrayContaining(['app@b:80-0', 'app@b:80-1', 'app@b:80-2', 'app@c:443-0']));
    expect(ids).toHaveLength(9);
    expect(filled).toEqual([{ appId: 'app', host: 'a:80' }]);
  });

  it("one app's backlog to a shared host:port takes that app's share only: another app's go too", () => {
    const candidates = [...rows('hooks:443', 200, 'b'), ...rows('hooks:443', 10, 'a')];
    const { ids, filled } = pickClaims(candidates, 32, () => 4);
    expect(ids.filter((i) => i.startsWith('b@'))).toHaveLength(4);
    expect(ids.filter((i) => i.startsWith('a@'))).toHaveLength(4);
    expect(filled).toEqual([
      { appId: 'b', host: 'hooks:443' },
      { appId: 'a', host: 'hooks:443' },
    ]);
    expect(pairOf(pairKey({ appId: 'a', host: 'h:1' }))).toEqual({ appId: 'a', host: 'h:1' });
  });

  it('never takes more than the room, nor for a pair with no room', () => {
    const room = (k: string) => (k === pairKey({ appId: 'app', host: 'a:80' }) ? 0 : 4);
    const { ids } = pickClaims([...rows('a:80', 5), ...rows('b:80', 5)], 3, room);
    expect(ids).toEqual(['app@b:80-0', 'app@b:80-1', 'app@b:80-2']);
  });
});
