import { createHmac } from 'node:crypto';
import { CALLBACK_HEADERS, signCallback, verifyCallback } from './callback-signing.js';

const SECRET = 'test-secret-0123456789';
const NOW = 1_796_000_000_000;
const BODY = '{"deliveryId":"d-1","status":"SUCCESS"}';

function headersFor(body: string, timestamp = String(NOW), secret = SECRET): Record<string, string> {
  return {
    [CALLBACK_HEADERS.deliveryId]: 'd-1',
    [CALLBACK_HEADERS.timestamp]: timestamp,
    [CALLBACK_HEADERS.signature]: signCallback(secret, timestamp, body),
  };
}

describe('callback signing (docs/callbacks.md "What is sent")', () => {
  it('signs HMAC-SHA256 over "<timestamp>.<raw body>", hex, prefixed v1=', () => {
    const expected = createHmac('sha256', SECRET).update(`${NOW}.${BODY}`).digest('hex');
    expect(signCallback(SECRET, String(NOW), BODY)).toBe(`v1=${expected}`);
    expect(signCallback(SECRET, String(NOW), Buffer.from(BODY))).toBe(`v1=${expected}`);
  });

  it('accepts a genuine delivery and returns its deliveryId', () => {
    expect(verifyCallback(headersFor(BODY), BODY, SECRET, { now: NOW + 1000 })).toEqual({
      ok: true,
      deliveryId: 'd-1',
      timestampMs: NOW,
    });
  });

  it('reads a Fetch Headers object and header names in any case', () => {
    const h = headersFor(BODY);
    const fetchHeaders = new Headers(h);
    expect(verifyCallback(fetchHeaders, BODY, SECRET, { now: NOW }).ok).toBe(true);
    const upper = Object.fromEntries(Object.entries(h).map(([k, v]) => [k.toUpperCase(), v]));
    expect(verifyCallback(upper, BODY, SECRET, { now: NOW }).ok).toBe(true);
  });

  it.each([
    ['a changed body', headersFor(BODY), BODY.replace('SUCCESS', 'FAILED'), 'signature mismatch'],
    ['another secret', headersFor(BODY, String(NOW), 'other-secret'), BODY, 'signature mismatch'],
    ['a changed timestamp', { ...headersFor(BODY), [CALLBACK_HEADERS.timestamp]: String(NOW + 1) }, BODY, 'mismatch'],
    ['no signature', { ...headersFor(BODY), [CALLBACK_HEADERS.signature]: '' }, BODY, 'missing'],
    ['a bare hex signature', { ...headersFor(BODY), [CALLBACK_HEADERS.signature]: 'ab'.repeat(32) }, BODY, 'format'],
    ['a non-numeric timestamp', { ...headersFor(BODY), [CALLBACK_HEADERS.timestamp]: '12e3' }, BODY, 'timestamp'],
  ])('refuses %s', (_name, headers, body, reason) => {
    const verdict = verifyCallback(headers, body, SECRET, { now: NOW });
    expect(verdict.ok).toBe(false);
    expect(verdict.ok ? '' : verdict.reason).toContain(reason);
  });

  it("refuses a replay under a fresh X-Tickwheel-Delivery: the id must be the signed body's", () => {
    const replay = { ...headersFor(BODY), [CALLBACK_HEADERS.deliveryId]: 'd-2' };
    expect(verifyCallback(replay, BODY, SECRET, { now: NOW })).toEqual({
      ok: false,
      reason: 'delivery id differs from the body',
    });
    const notJson = 'not json';
    expect(verifyCallback(headersFor(notJson), notJson, SECRET, { now: NOW }).ok).toBe(false);
  });

  it('refuses a timestamp outside the tolerance (5 min by default, replay protection)', () => {
    expect(verifyCallback(headersFor(BODY), BODY, SECRET, { now: NOW + 300_001 }).ok).toBe(false);
    expect(verifyCallback(headersFor(BODY), BODY, SECRET, { now: NOW - 300_001 }).ok).toBe(false);
    expect(verifyCallback(headersFor(BODY), BODY, SECRET, { now: NOW + 300_000 }).ok).toBe(true);
    expect(verifyCallback(headersFor(BODY), BODY, SECRET, { now: NOW + 60_001, toleranceMs: 60_000 }).ok).toBe(false);
  });
});
