import type { TickwheelClient } from '../../src/client/tickwheel-client.js';
import type { Schemas } from '../../src/client/typed-client.js';
import { sleep } from './async.js';

/** Once a year (1 January, 00:00 UTC): a job on it never fires during a test unless triggered by hand. */
export const YEARLY = '0 0 1 1 *';

/**
 * The body of a CRON job `code` that never fires by itself during a test (see {@link YEARLY}): the tests fire it
 * with trigger-now, or use it only as a row to read, edit or refuse. `extra` goes on top (params, limits, ...).
 */
export function neverFiringJob(code: string, handler = 'noop', extra: Record<string, unknown> = {}): JobRequest {
  return { code, handler, triggerType: 'CRON', triggerExpr: YEARLY, ...extra };
}

/** What POST /api/jobs answers: the job as `GET /api/jobs/{id}` shows it. */
export type JobView = Schemas['JobViewDto'];

/**
 * A POST /api/jobs body for {@link createJob}: CreateJobDto's fields by name, `code` required and the rest
 * optional (values as loosely typed as the tests build them: the API validates them).
 */
export type JobRequest = { code: string } & { [K in keyof Schemas['CreateJobDto']]?: unknown };

/**
 * Creates a job as `client` (POST /api/jobs) and expects a 201; returns the created job. `job` goes over the
 * defaults of {@link neverFiringJob}: a CRON job of the `noop` handler that never fires by itself.
 * For tests whose subject is what follows the create; a test of the create's own answer sends it by hand.
 */
export async function createJob(client: TickwheelClient, job: JobRequest): Promise<JobView> {
  const res = await client.request<JobView>('POST', '/api/jobs', { ...neverFiringJob(job.code), ...job });
  expect({ status: res.status, body: res.body }).toMatchObject({ status: 201 });
  return res.body;
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
