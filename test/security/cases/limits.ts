import { AddressInfo } from 'node:net';
import { rowsDiff } from '../../utils/namespace-rows.js';
import { LATER_TASK } from '../../utils/routes.js';
import { WITH_SHELL } from '../../utils/tenancy.js';
import { waitFor } from '../../utils/test-node.js';
import { type App, type Hostile, refused } from '../harness.js';
import { createJob, neverFiringJob } from '../../utils/jobs.js';

type Task = { status: string; attempt: number; error: string | null; attempts: unknown[] };
const KB = 1024;
/** A JSON object of about `bytes` bytes. */
const blob = (bytes: number) => ({ blob: 'x'.repeat(bytes) });
const yearly = (code: string, extra: Record<string, unknown> = {}) => ({
  ...neverFiringJob(code),
  enabled: false,
  ...extra,
});

/**
 * Destinations the egress policy refuses without DNS, in their many spellings (README "Egress policy"). The suite's
 * node allows 127.0.0.1 on the receiver's port only, so 127.0.0.1 on any other port is refused too.
 */
function refusedUrls(nodePort: number): string[] {
  return [
    'http://localhost/',
    'http://LOCALHOST:8080/',
    'http://localhost./',
    'http://x.localhost/',
    'http://127.0.0.1/',
    'http://127.1/',
    'http://2130706433/',
    'http://0x7f000001/',
    'http://0177.0.0.1/',
    'http://127.0.0.2/',
    'http://[::1]/',
    'http://[::ffff:127.0.0.1]/',
    'http://[::ffff:7f00:1]/',
    'http://[0:0:0:0:0:ffff:127.0.0.1]/',
    'http://[64:ff9b::127.0.0.1]/',
    'http://[::127.0.0.1]/',
    'http://0.0.0.0/',
    'http://0/',
    'http://[::]/',
    'http://169.254.169.254/latest/meta-data/',
    'http://169.254.169.254./',
    'http://2852039166/',
    'http://0xa9fea9fe/',
    'http://0251.0376.0251.0376/',
    'http://[::ffff:169.254.169.254]/',
    'http://[fd00:ec2::254]/',
    'http://100.100.100.200/',
    'http://metadata.google.internal/',
    'http://METADATA.GOOGLE.INTERNAL./',
    'http://metadata/',
    'http://169.254.1.1/',
    'http://[fe80::1]/',
    'http://[fe80::1%25eth0]/',
    'http://api.example.com@169.254.169.254/',
    'http://224.0.0.1/',
    'http://255.255.255.255/',
    'http://127.0.0.1:6379/',
    'http://127.0.0.1:3306/',
    `http://127.0.0.1:${nodePort}/metrics`,
    'file:///etc/passwd',
    'gopher://127.0.0.1:6379/_FLUSHALL',
    'ftp://example.com/',
  ];
}

/**
 * Egress (the http handler reaches no refused destination, in any spelling), bounded inputs (params, batches,
 * crontab files, backfills), rate limits and per-app caps (jobs, unfinished tasks, one job's fan-out).
 */
export function limitCases(h: Hostile): void {
  const nodePort = () => (h.node.app.getHttpServer().address() as AddressInfo).port;

  describe('egress', () => {
    it("[egress] every spelling of loopback, metadata, link-local and the cluster's own ports in params.url is a 400 naming it at submit", () =>
      h.unchanged(async () => {
        for (const url of refusedUrls(nodePort())) {
          const res = await h.a.submitTask({ requestId: `${h.prefix}-egress`, handler: 'http', params: { url } });
          expect([url, res.status]).toEqual([url, 400]);
          refused(res, 400, 'VALIDATION', { field: 'params.url' });
        }
      }));

    it('[egress] a refused url is a 400 in a batch, a job, a PATCH and a trigger too', async () => {
      const url = 'http://169.254.169.254/latest/meta-data/';
      const job = (
        await h.a.request<{ id: string }>(
          'POST',
          '/api/jobs',
          yearly('http', { handler: 'http', params: { url: h.receiver.url } }),
        )
      ).body;
      await h.unchanged(async () => {
        refused(await h.a.submitTasks([{ handler: 'noop' }, { handler: 'http', params: { url } }]), 400, 'VALIDATION', {
          field: 'tasks[1].params.url',
        });
        refused(
          await h.a.request('POST', '/api/jobs', yearly('meta', { handler: 'http', params: { url } })),
          400,
          'VALIDATION',
          { field: 'params.url' },
        );
        refused(await h.a.request('PATCH', `/api/jobs/${job.id}`, { params: { url } }), 400, 'VALIDATION', {
          field: 'params.url',
        });
        refused(
          await h.a.request('PATCH', `/api/jobs/${h.jobA.id}`, { handler: 'http', params: { url } }),
          400,
          'VALIDATION',
          { field: 'params.url' },
        );
        refused(await h.a.request('POST', `/api/jobs/${job.id}/trigger`, { params: { url } }), 400, 'VALIDATION', {
          field: 'params.url',
        });
      });
    });

    it("[egress] an app's own egressAllow narrows it: its call to a destination the cluster allows fails after one attempt, another app's succeeds", async () => {
      const [narrow, wide] = [await h.newApp('narrow'), await h.newApp('wide')];
      expect(
        (
          await h.admin.request('PATCH', `/api/clients/${narrow.appId}`, {
            egressAllow: ['10.0.0.0/8', 'api.example.com:443'],
          })
        ).status,
      ).toBe(200);
      const call = { handler: 'http', params: { url: `${h.receiver.url}/hit` }, maxAttempts: 3, retryBackoffMs: 50 };
      for (const app of [narrow, wide])
        expect((await app.submitTask({ requestId: `${app.appId}-call`, ...call })).status).toBe(202);
      const job = (
        await narrow.request<{ id: string }>(
          'POST',
          '/api/jobs',
          yearly('narrow', { handler: 'http', params: call.params, retryMax: 2 }),
        )
      ).body;
      const fire = (await narrow.request<{ requestId: string }>('POST', `/api/jobs/${job.id}/trigger`, {})).body
        .requestId;
      const ended = async (app: App, requestId: string) => {
        let task = {} as Task;
        await waitFor(`${requestId} to end`, async () =>
          ['SUCCESS', 'FAILED'].includes((task = (await app.getTask(requestId)).body as Task).status),
        );
        return task;
      };
      const refusedMessage = /egress refused: 127\.0\.0\.1:\d+ is not in the app's egress allow-list \(egressAllow\)/;
      for (const requestId of [`${narrow.appId}-call`, fire]) {
        const task = await ended(narrow, requestId);
        expect(task).toMatchObject({ status: 'FAILED', attempt: 1 });
        expect(task.attempts).toHaveLength(1);
        expect(task.error).toMatch(refusedMessage);
      }
      expect(await ended(wide, `${wide.appId}-call`)).toMatchObject({ status: 'SUCCESS', attempt: 1 });
      expect(h.receiver.hits.filter((id) => id.startsWith(h.prefix) || id === fire)).toEqual([`${wide.appId}-call`]);
      expect((await fetch(`${h.node.url}/health/ready`)).status).toBe(200);
    });
  });

  describe('bounded inputs', () => {
    it('[bounded inputs] params over 65,535 bytes are a 400 naming params on a task, a job, a PATCH and a trigger', () =>
      h.unchanged(async () => {
        refused(await h.a.submitTask({ handler: 'noop', params: blob(70 * KB) }), 400, 'VALIDATION', {
          field: 'params',
        });
        refused(await h.a.request('POST', '/api/jobs', yearly('big', { params: blob(70 * KB) })), 400, 'VALIDATION', {
          field: 'params',
        });
        refused(await h.a.request('PATCH', `/api/jobs/${h.jobA.id}`, { params: blob(70 * KB) }), 400, 'VALIDATION', {
          field: 'params',
        });
        refused(
          await h.a.request('POST', `/api/jobs/${h.jobA.id}/trigger`, { params: blob(70 * KB) }),
          400,
          'VALIDATION',
          { field: 'params' },
        );
        refused(
          await h.a.request('POST', '/api/tasks/batch', { tasks: [{ handler: 'noop', params: blob(70 * KB) }] }),
          400,
          'VALIDATION',
          { field: 'tasks[0].params' },
        );
      }));

    it.each([
      ['code', '/api/jobs', () => yearly('c'.repeat(129))],
      ['code', '/api/jobs', () => yearly('bad code')],
      ['description', '/api/jobs', () => yearly('d', { description: 'd'.repeat(256) })],
      ['triggerExpr', '/api/jobs', () => yearly('t', { triggerExpr: `0 0 0 1 1 *${' '.repeat(250)}x` })],
      ['timeZone', '/api/jobs', () => yearly('z', { timeZone: 'Z'.repeat(65) })],
      ['routingKey', '/api/jobs', () => yearly('r', { routingKey: 'k'.repeat(256) })],
      ['handler', '/api/jobs', () => yearly('h', { handler: 'h'.repeat(129) })],
      [
        'shardParams',
        '/api/jobs',
        () =>
          yearly('s', {
            routingStrategy: 'SHARDING_BROADCAST',
            shardTotal: 1000,
            shardParams: Array.from({ length: 1001 }, () => ({})),
          }),
      ],
      ['requestId', '/api/tasks', () => ({ ...LATER_TASK, requestId: 'r'.repeat(129) })],
      ['routingKey', '/api/tasks', () => ({ ...LATER_TASK, routingKey: 'k'.repeat(256) })],
      ['handler', '/api/tasks', () => ({ handler: 'h'.repeat(129) })],
      ['tasks', '/api/tasks/batch', () => ({ tasks: Array.from({ length: 1001 }, () => LATER_TASK) })],
      ['tasks', '/api/tasks/batch', () => ({ tasks: [] })],
      ['fileName', '/api/jobs/import-crontab', () => ({ fileName: 'f'.repeat(65), content: '' })],
      ['content', '/api/jobs/import-crontab', () => ({ fileName: 'big', content: '#'.repeat(256 * KB + 1) })],
    ] as Array<[string, string, () => unknown]>)(
      '[bounded inputs] %s over its maximum on %s is a 400 naming it',
      (field, path, body) =>
        h.unchanged(async () => {
          refused(await h.shell.request('POST', path, body()), 400, 'VALIDATION', { field });
        }),
    );

    it('[bounded inputs] a batch of 100,000 items is a 400 naming tasks', () =>
      h.unchanged(async () => {
        const items = `[${Array.from({ length: 100_000 }, () => '{"handler":"noop"}').join(',')}]`;
        refused(await h.a.request('POST', '/api/tasks/batch', `{"tasks":${items}}`), 400, 'VALIDATION', {
          field: 'tasks',
        });
      }));

    it('[bounded inputs] 1 MB of crontab junk is a 400 naming content; 256 KiB of junk gets a bounded answer and writes no job', async () => {
      await h.unchanged(async () => {
        refused(
          await h.shell.request('POST', '/api/jobs/import-crontab', {
            fileName: 'junk',
            content: 'x y z\n'.repeat(175_000),
          }),
          400,
          'VALIDATION',
          { field: 'content' },
        );
      });
      const before = await h.rows();
      const res = await h.shell.request<{ rejected: unknown[]; rejectedTotal: number; created: string[] }>(
        'POST',
        '/api/jobs/import-crontab',
        { fileName: 'junk', content: `${'j'.repeat(900)}\n`.repeat(290) },
      );
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ created: [], rejectedTotal: 290 });
      expect(res.body.rejected).toHaveLength(100);
      expect(JSON.stringify(res.body).length).toBeLessThan(64 * KB);
      const diff = rowsDiff(before, await h.rows());
      expect(Object.keys(diff).filter((t) => t !== 'audit_log')).toEqual([]); // at most the import's own audit row
    });

    it('[caps] a job over JOB_MAX_INSTANCES_PER_MINUTE is a 400 on create and PATCH', () =>
      h.unchanged(async () => {
        const sharded = (shardTotal: number, triggerExpr: string) => ({
          routingStrategy: 'SHARDING_BROADCAST',
          shardTotal,
          triggerType: 'CRON',
          triggerExpr,
        });
        refused(
          await h.a.request('POST', '/api/jobs', yearly('fan', { ...sharded(1000, '* * * * * *'), enabled: true })),
          400,
          'VALIDATION',
          { field: 'shardTotal' },
        );
        refused(await h.a.request('POST', '/api/jobs', yearly('fan', sharded(51, '* * * * * *'))), 400, 'VALIDATION', {
          field: 'shardTotal',
        });
        refused(
          await h.a.request('POST', '/api/jobs', yearly('fan', { triggerType: 'FIXED_RATE', triggerExpr: '10' })),
          400,
          'VALIDATION',
          { field: 'triggerExpr' },
        );
        refused(
          await h.a.request('PATCH', `/api/jobs/${h.jobA.id}`, {
            triggerExpr: '*/1 * * * * *',
            routingStrategy: 'SHARDING_BROADCAST',
            shardTotal: 100,
          }),
          400,
          'VALIDATION',
          { field: 'shardTotal' },
        );
      }));

    it('[bounded inputs] a backfill of more than 10,000 instances (fires x shardTotal) is a 400 naming to', async () => {
      const job = (
        await h.a.request<{ id: string }>(
          'POST',
          '/api/jobs',
          yearly('bf', { triggerExpr: '0 * * * * *', routingStrategy: 'SHARDING_BROADCAST', shardTotal: 20 }),
        )
      ).body;
      await h.unchanged(async () => {
        const from = new Date(Date.now() - 1000 * 60_000).toISOString();
        refused(
          await h.a.request('POST', `/api/jobs/${job.id}/backfill`, {
            from,
            to: new Date(Date.now() - 60_000).toISOString(),
          }),
          400,
          'VALIDATION',
          { field: 'to' },
        );
      });
    });
  });

  describe('rate limits and caps', () => {
    it('[rate limits] a burst beyond the bucket answers 429 with Retry-After, and creates only what was admitted', async () => {
      const limited = await h.newApp('rate', undefined, { rateLimit: 1, rateBurst: 3 });
      const before = await h.rows();
      const answers = await Promise.all(
        Array.from({ length: 8 }, (_, i) => limited.submitTask({ ...LATER_TASK, requestId: `${h.prefix}-rate-${i}` })),
      );
      const admitted = answers.filter((r) => r.status === 202);
      const limitedAnswers = answers.filter((r) => r.status !== 202);
      expect(admitted.length).toBeGreaterThanOrEqual(3);
      expect(limitedAnswers.length).toBeGreaterThanOrEqual(1);
      for (const res of limitedAnswers) {
        refused(res, 429, 'RATE_LIMITED');
        expect(Number(res.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
        expect(res.headers.get('ratelimit-limit')).toBe('3');
      }
      const diff = rowsDiff(before, await h.rows());
      expect(diff).toEqual({ job_instance: { added: expect.any(Array), removed: [], changed: [] } });
      expect(diff.job_instance?.added).toHaveLength(admitted.length);
      await h.unchanged(async () => {
        refused(await limited.submitTasks(Array.from({ length: 10 }, () => LATER_TASK)), 429, 'RATE_LIMITED'); // a batch takes a token like any request
      });
    });

    it('[caps] past its unfinished-task cap an app gets 429 with Retry-After for a task, a batch, a trigger and a backfill, and nothing is written', async () => {
      const capped = await h.newApp('cap', undefined, { rateLimit: 0, maxUnfinishedTasks: 2 });
      for (const i of [0, 1])
        expect((await capped.submitTask({ ...LATER_TASK, requestId: `${h.prefix}-cap-${i}` })).status).toBe(202);
      const job = (
        await capped.request<{ id: string }>(
          'POST',
          '/api/jobs',
          yearly('cap', { triggerExpr: '0 0 * * * *', routingStrategy: 'SHARDING_BROADCAST', shardTotal: 3 }),
        )
      ).body;
      await h.unchanged(async () => {
        const calls: Array<[string, string, unknown]> = [
          ['POST', '/api/tasks', { ...LATER_TASK, requestId: `${h.prefix}-cap-2` }],
          ['POST', '/api/tasks/batch', { tasks: [LATER_TASK] }],
          ['POST', `/api/jobs/${job.id}/trigger`, {}],
          [
            'POST',
            `/api/jobs/${job.id}/backfill`,
            { from: new Date(Date.now() - 3 * 3_600_000).toISOString(), to: new Date().toISOString() },
          ],
        ];
        for (const [method, path, body] of calls) {
          const res = await capped.request(method, path, body);
          expect([path, res.status]).toEqual([path, 429]);
          refused(res, 429, 'TOO_MANY_UNFINISHED');
          expect(res.headers.get('retry-after')).toBe('1');
        }
      });
    });

    it('[caps] past its job cap an app gets 409 naming maxJobs for a job and a crontab import', async () => {
      const capped = await h.newApp('jobcap', WITH_SHELL, { rateLimit: 0, maxJobs: 1 });
      await createJob(capped, yearly('one'));
      await h.unchanged(async () => {
        refused(await capped.request('POST', '/api/jobs', yearly('two')), 409, 'CONFLICT', { field: 'maxJobs' });
        refused(
          await capped.request('POST', '/api/jobs/import-crontab', {
            fileName: 'cap',
            content: '0 1 * * * root /bin/true\n',
          }),
          409,
          'CONFLICT',
          { field: 'maxJobs' },
        );
      });
    });
  });
}
