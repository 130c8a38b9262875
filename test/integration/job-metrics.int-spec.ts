import { JobRunMetrics } from '../../src/modules/execution/index.js';
import { deleteNamespaceRows } from '../utils/namespace-rows.js';
import { createJob, neverFiringJob, triggerNow } from '../utils/jobs.js';
import {
  type AppClient,
  clusterEnv,
  executorsBeat,
  signedClient,
  standaloneEnv,
  startNode,
  TestNode,
  uniqueNamespace,
  waitFor,
} from '../utils/test-node.js';

type View = { id: string; code: string; metrics: boolean; version: number };
type Problem = { status: number; field?: string; code?: string };

/**
 * Per-job metrics (docs/observability.md "Job runs", docs/api.md "Jobs"), on MariaDB and Redis: the `metrics` field,
 * the JOB_METRICS_MAX bound under concurrent opt-ins, and tickwheel_job_runs_total as one node (api, scheduler,
 * executor) counts final statuses written by its executor and by its api (a cancel).
 */
describe('per-job metrics (MariaDB + Redis)', () => {
  const ns = uniqueNamespace('int-jobmetrics');
  let node: TestNode;
  let client: AppClient;
  let racers: AppClient[] = [];

  beforeAll(async () => {
    node = await startNode(clusterEnv(ns, { JOB_METRICS_MAX: '2' }));
    client = await signedClient(node);
    await executorsBeat(node, 1);
  });

  afterAll(async () => {
    await deleteNamespaceRows(node?.ds, ns, { definitions: true });
    await node?.close();
  });

  const post = (body: Record<string, unknown>) => client.request<View & Problem>('POST', '/api/jobs', body);
  const patch = (code: string, body: Record<string, unknown>) =>
    client.request<View & Problem>('PATCH', `/api/jobs/${code}`, body);
  const slots = async () =>
    (
      (await node.ds.query(
        'SELECT metrics_slot AS s FROM job_definition WHERE namespace = ? AND metrics_slot IS NOT NULL ORDER BY 1',
        [ns],
      )) as Array<{ s: number }>
    ).map((r) => Number(r.s));
  const auditRows = async () =>
    Number(
      ((await node.ds.query('SELECT COUNT(*) AS n FROM audit_log WHERE namespace = ?', [ns])) as [{ n: number }])[0].n,
    );

  it('should take metrics on create and PATCH, show it, and refuse the one past JOB_METRICS_MAX writing nothing', async () => {
    expect((await post(neverFiringJob('a', 'noop', { metrics: true }))).body.metrics).toBe(true);
    expect((await post(neverFiringJob('b'))).body.metrics).toBe(false);
    expect((await post(neverFiringJob('c', 'noop', { metrics: true }))).body.metrics).toBe(true);
    expect(await slots()).toEqual([0, 1]);

    const audits = await auditRows();
    const third = await post(neverFiringJob('d', 'noop', { metrics: true }));
    expect([third.status, third.body.field]).toEqual([409, 'metrics']);
    expect((await client.request('GET', '/api/jobs/d')).status).toBe(404);
    const b = (await client.request<View>('GET', '/api/jobs/b')).body;
    const onB = await patch('b', { metrics: true, description: 'counted' });
    expect([onB.status, onB.body.field]).toEqual([409, 'metrics']);
    expect((await client.request<View>('GET', '/api/jobs/b')).body).toEqual(b); // nothing changed
    expect(await auditRows()).toBe(audits);

    expect((await patch('a', { metrics: false })).body.metrics).toBe(false);
    expect((await patch('b', { metrics: true })).body.metrics).toBe(true);
    expect((await patch('b', { metrics: true })).body.metrics).toBe(true); // keeps its slot
    expect(await slots()).toEqual([0, 1]);
    expect((await client.request<View>('GET', '/api/jobs/b')).body.metrics).toBe(true);
    for (const bad of [null, 'yes', 1]) {
      const res = await patch('a', { metrics: bad });
      expect([res.status, res.body.field]).toEqual([400, 'metrics']);
      const created = await post(neverFiringJob(`bad-${String(bad)}`, 'noop', { metrics: bad }));
      expect([created.status, created.body.field]).toEqual([400, 'metrics']);
    }
  });

  it('should let exactly JOB_METRICS_MAX of many concurrent opt-ins through', async () => {
    for (const code of ['b', 'c']) expect((await patch(code, { metrics: false })).status).toBe(200);
    // Eight apps: one app's creates queue on its client row's lock, these do not (on MariaDB, 9-10 of their inserts
    // met a slot taken meanwhile in two runs, and read the slots again).
    const apps = await Promise.all(Array.from({ length: 8 }, () => signedClient(node)));
    const answers = await Promise.all(
      apps.map((app, i) =>
        app.request<Problem>('POST', '/api/jobs', neverFiringJob(`race-${i}`, 'noop', { metrics: true })),
      ),
    );
    racers = apps;
    expect(answers.map((a) => a.status).sort()).toEqual([201, 201, 409, 409, 409, 409, 409, 409]);
    for (const r of answers.filter((a) => a.status === 409)) expect(r.body.field).toBe('metrics');
    expect(await slots()).toEqual([0, 1]);
  });

  it('should count the final statuses of jobs with metrics on, by app, job and status, and no other job', async () => {
    for (const [i, app] of racers.entries()) await app.request('PATCH', `/api/jobs/race-${i}`, { metrics: false });
    await createJob(client, neverFiringJob('counted', 'noop', { metrics: true }));
    await createJob(client, neverFiringJob('waits', 'nobody-serves-this', { metrics: true }));
    await createJob(client, neverFiringJob('plain'));
    await node.app.get(JobRunMetrics).refresh(); // what every process does every 30 s
    const series = async () => {
      const text = await (await fetch(`${node.url}/metrics`)).text();
      return text
        .split('\n')
        .filter((l) => l.startsWith('tickwheel_job_runs_total{'))
        .map((l) => l.replace(`app="${client.appId}"`, 'app="A"'))
        .sort();
    };
    expect(await series()).toContain('tickwheel_job_runs_total{app="A",job="counted",status="FAILED"} 0');

    await triggerNow(client, 'counted', 2);
    await triggerNow(client, 'plain', 1);
    await triggerNow(client, 'waits', 1);
    const [waiting] = (
      await client.request<{ items: Array<{ instanceId: string }> }>('GET', '/api/jobs/waits/instances')
    ).body.items;
    expect((await client.request('POST', `/api/jobs/waits/instances/${waiting.instanceId}/cancel`)).status).toBe(200);
    const done = 'tickwheel_job_runs_total{app="A",job="counted",status="SUCCESS"} 2';
    await waitFor('two runs counted', async () => (await series()).includes(done));
    expect(await series()).toEqual(
      [
        'tickwheel_job_runs_total{app="A",job="counted",status="SUCCESS"} 2',
        'tickwheel_job_runs_total{app="A",job="counted",status="FAILED"} 0',
        'tickwheel_job_runs_total{app="A",job="counted",status="TIMEOUT"} 0',
        'tickwheel_job_runs_total{app="A",job="counted",status="CANCELLED"} 0',
        'tickwheel_job_runs_total{app="A",job="waits",status="SUCCESS"} 0',
        'tickwheel_job_runs_total{app="A",job="waits",status="FAILED"} 0',
        'tickwheel_job_runs_total{app="A",job="waits",status="TIMEOUT"} 0',
        'tickwheel_job_runs_total{app="A",job="waits",status="CANCELLED"} 1',
      ].sort(),
    );

    await client.request('PATCH', '/api/jobs/waits', { metrics: false });
    await node.app.get(JobRunMetrics).refresh();
    expect((await series()).filter((l) => l.includes('job="waits"'))).toEqual([]);
  }, 60_000);
});

describe('per-job metrics (standalone, SQLite)', () => {
  let node: TestNode;
  let client: AppClient;

  beforeAll(async () => {
    node = await startNode(standaloneEnv({ JOB_METRICS_MAX: '1' }));
    client = await signedClient(node);
  });

  afterAll(async () => node?.close());

  it('should bound the jobs with metrics on and count their runs', async () => {
    await createJob(client, neverFiringJob('one', 'noop', { metrics: true }));
    const two = await client.request<Problem>('POST', '/api/jobs', neverFiringJob('two', 'noop', { metrics: true }));
    expect([two.status, two.body.field]).toEqual([409, 'metrics']);
    await node.app.get(JobRunMetrics).refresh();
    await triggerNow(client, 'one', 1);
    const line = `tickwheel_job_runs_total{app="${client.appId}",job="one",status="SUCCESS"} 1`;
    await waitFor('the run counted', async () => (await (await fetch(`${node.url}/metrics`)).text()).includes(line));
  });
});
