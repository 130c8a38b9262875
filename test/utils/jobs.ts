import type { TickwheelClient } from '../../src/client/tickwheel-client.js';
import { sleep } from './async.js';

/** Once a year (1 January, 00:00 UTC): a job on it never fires during a test unless triggered by hand. */
export const YEARLY = '0 0 1 1 *';

/**
 * The body of a CRON job `code` that never fires by itself during a test (see {@link YEARLY}): the tests fire it
 * with trigger-now, or use it only as a row to read, edit or refuse. `extra` goes on top (params, limits, ...).
 */
export function neverFiringJob(
  code: string,
  handler = 'noop',
  extra: Record<string, unknown> = {},
): Record<string, unknown> {
  return { code, handler, triggerType: 'CRON', triggerExpr: YEARLY, ...extra };
}

/**
 * `n` manual fires (trigger-now) of job `code`, one at a time, each answered 202, with `gapMs` after each: manual
 * fires are keyed by their millisecond, so two in the same millisecond would be one fire.
 */
export async function triggerNow(client: TickwheelClient, code: string, n = 1, gapMs = 3): Promise<void> {
  for (let i = 0; i < n; i++) {
    expect((await client.request('POST', `/api/jobs/${code}/trigger`, {})).status).toBe(202);
    await sleep(gapMs);
  }
}
