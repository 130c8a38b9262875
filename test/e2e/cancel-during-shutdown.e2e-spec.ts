import type { TickwheelClient } from '../../src/client/tickwheel-client.js';
import { NodeRegistryService } from '../../src/modules/dispatch/index.js';
import { type LimitReceiver, startLimitReceiver } from '../utils/limit-receiver.js';
import { type ProductProcess, startProcess } from '../utils/process-node.js';
import {
  clusterEnv,
  jobInstanceStatuses,
  liveExecutors,
  signedClient,
  startNode,
  type TestNode,
  uniqueNamespace,
  waitFor,
} from '../utils/test-node.js';
import { createJob, triggerNow } from '../utils/jobs.js';

/**
 * Cancel of a running limited instance while its executor shuts down gracefully (SIGTERM, docs/execution.md): within the
 * grace (the stop signal still reaches the draining node), and racing a grace of 0 (the handler is aborted for the
 * shutdown and handed back just as the cancel lands). Either way the instance ends CANCELLED, the next one runs on
 * the other executor only after the cancelled call ended, and nothing is left WAITING. Real executor processes.
 */
describe("cancel during an executor's graceful shutdown (real processes)", () => {
  const ns = uniqueNamespace('e2e-cshut');
  let api: TestNode;
  let client: TickwheelClient;
  let rx: LimitReceiver;
  const holding = new Set<string>();
  const procs: ProductProcess[] = [];
  const executor = (name: string, grace: number) => {
    const p = startProcess(
      clusterEnv(ns, {
        ROLES: 'executor',
        PORT: '0',
        NODE_NAME: name,
        NODE_OFFLINE_AFTER_MS: '8000',
        EXECUTOR_SHUTDOWN_GRACE_MS: String(grace),
        LOG_LEVEL: 'error',
      }),
    );
    procs.push(p);
    return p;
  };
  const live = () => liveExecutors(api);

  beforeAll(async () => {
    rx = await startLimitReceiver((path) => (holding.has(path) ? { hold: true } : { status: 200, delayMs: 0 }));
    api = await startNode(
      clusterEnv(ns, { ROLES: 'api,scheduler', NODE_OFFLINE_AFTER_MS: '8000', LOG_LEVEL: 'error' }),
    );
    client = await signedClient(api);
  }, 60_000);
  afterAll(async () => {
    holding.clear();
    for (const p of procs) await p.stop(3000);
    await api?.close();
    await rx?.close();
  });

  const rows = (jobId: string) => jobInstanceStatuses(api.ds, jobId);

  it.each([
    ['within the grace', 20_000],
    ['racing a grace of 0', 0],
  ])(
    '%s',
    async (_what, grace) => {
      const tag = grace === 0 ? 'g0' : 'gx';
      const path = `/${tag}`;
      holding.add(path);
      const first = executor(`${tag}a`, grace);
      await waitFor('the first executor beats', async () => (await live()).includes(`${tag}a`), 30_000);
      const jobId = (
        await createJob(client, {
          code: tag,
          handler: 'http',
          maxConcurrency: 1,
          timeoutMs: 60_000,
          params: { url: `${rx.url}${path}`, timeoutMs: 60_000 },
        })
      ).id;
      await triggerNow(client, tag, 3, 5);
      await waitFor(
        'A runs, B and C wait',
        async () => rx.of(path).length === 1 && (await rows(jobId)).filter((r) => r.status === 'WAITING').length === 2,
        30_000,
        20,
      );
      const [a] = await rows(jobId);
      executor(`${tag}b`, grace);
      await waitFor('the second executor beats', async () => (await live()).includes(`${tag}b`), 30_000);
      first.signal('SIGTERM');
      if (grace > 0)
        await waitFor(
          'the first executor draining',
          async () =>
            (await api.app.get(NodeRegistryService).liveNodes()).some(
              (n) => n.nodeId.startsWith(`${tag}a-`) && n.info.labels?.draining === 'true',
            ),
          30_000,
          20,
        );
      const cancelled = await client.request<{ status: string }>('POST', `/api/jobs/${tag}/instances/${a.id}/cancel`);
      expect(cancelled.body.status).toBe('CANCELLED');
      holding.delete(path);
      await waitFor(
        'all final',
        async () => (await rows(jobId)).every((r) => ['SUCCESS', 'CANCELLED', 'FAILED'].includes(r.status)),
        60_000,
        50,
      );
      expect((await rows(jobId)).map((r) => r.status)).toEqual(['CANCELLED', 'SUCCESS', 'SUCCESS']);
      expect(rx.peak(path)).toBe(1);
      expect(rx.of(path).filter((c) => c.instanceId === a.id)).toHaveLength(1);
      await first.exited;
    },
    120_000,
  );
});
