import { classifyDelivery } from './outcome.js';

const DELAYS = [5_000, 30_000];
const NOW = 1_000_000;

/** docs/notifications.md "Delivery": the outcome of one try, per channel kind. */
describe('classifyDelivery', () => {
  it.each([
    [{ kind: 'answer', status: 204 } as const, 'delivered'],
    [{ kind: 'answer', status: 302 } as const, 'failed'],
    [{ kind: 'answer', status: 404 } as const, 'failed'],
    [{ kind: 'answer', status: 408 } as const, 'retry'],
    [{ kind: 'answer', status: 503 } as const, 'retry'],
    [{ kind: 'error', message: 'ECONNREFUSED: connect' } as const, 'retry'],
    [{ kind: 'refused', message: 'loopback' } as const, 'failed'],
    [{ kind: 'sent' } as const, 'delivered'],
    [{ kind: 'smtp', code: 421, message: 'busy' } as const, 'retry'],
    [{ kind: 'smtp', code: null, message: 'ETIMEDOUT' } as const, 'retry'],
    [{ kind: 'smtp', code: 550, message: 'no such user' } as const, 'failed'],
    [{ kind: 'final', message: 'SMTP_NOT_CONFIGURED: SMTP_URL is not set' } as const, 'failed'],
  ])('%j on the first try: %s', (result, outcome) => {
    expect(classifyDelivery(result, 1, DELAYS, NOW).outcome).toBe(outcome);
  });

  it('waits the configured delay after each failed try, and fails after the last', () => {
    const refused = { kind: 'error', message: 'ECONNREFUSED' } as const;
    expect(classifyDelivery(refused, 1, DELAYS, NOW)).toMatchObject({ outcome: 'retry', waitMs: 5_000 });
    expect(classifyDelivery(refused, 2, DELAYS, NOW)).toMatchObject({ outcome: 'retry', waitMs: 30_000 });
    expect(classifyDelivery(refused, 3, DELAYS, NOW)).toMatchObject({ outcome: 'failed', error: 'ECONNREFUSED' });
    const busy = { kind: 'smtp', code: 451, message: 'try later' } as const;
    expect(classifyDelivery(busy, 3, DELAYS, NOW)).toMatchObject({ outcome: 'failed', statusCode: 451 });
  });

  it('keeps the reply code and names it in the error', () => {
    const o = classifyDelivery({ kind: 'smtp', code: 550, message: 'no such user' }, 1, DELAYS, NOW);
    expect(o).toEqual({ outcome: 'failed', statusCode: 550, error: 'SMTP 550: no such user' });
    expect(classifyDelivery({ kind: 'answer', status: 429, retryAfter: '7' }, 1, DELAYS, NOW)).toMatchObject({
      outcome: 'retry',
      waitMs: 7_000,
    });
  });
});
