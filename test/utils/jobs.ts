/** Once a year (1 January, 00:00 UTC): a job on it never fires during a test unless triggered by hand. */
export const YEARLY = '0 0 1 1 *';

/**
 * The body of a CRON job `code` that never fires by itself during a test (see {@link YEARLY}): the tests fire it
 * with trigger-now, or use it only as a row to read, edit or refuse. `extra` goes on top (params, limits, ...).
 */
export function neverFiringJob(code: string, handler = 'noop', extra: Record<string, unknown> = {}): Record<string, unknown> {
  return { code, handler, triggerType: 'CRON', triggerExpr: YEARLY, ...extra };
}
