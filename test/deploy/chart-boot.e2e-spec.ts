import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { DataSource } from 'typeorm';
import { TickwheelClient } from '../../src/client/tickwheel-client.js';
import { dataSourceOptions } from '../../src/modules/metadata/index.js';
import { startCommand } from '../utils/process-node.js';
import { deleteNamespaceRows } from '../utils/namespace-rows.js';
import { MYSQL_URL, REDIS_URL, uniqueNamespace, waitFor } from '../utils/test-node.js';
import {
  helmTemplate,
  LocalPod,
  parseManifests,
  RenderedPod,
  renderedPods,
  startPod,
  TINI,
  waitProbe,
} from './rendered-pods.js';
import { createJob } from '../utils/jobs.js';

/**
 * The rendered chart boots (docs/deploy.md "The chart"): `helm template` with the default values, the secrets and one
 * extra executor (examples/greeting); every Deployment's pod is started as its container would be (the image's
 * ENTRYPOINT, tini, in front of the rendered args, from the repo root, with exactly the env Kubernetes resolves for
 * it; only the in-cluster DB and Redis URLs and the pod's port are mapped to this machine; without tini here, what
 * follows its `--` runs directly). 100 signed tasks and a cron job then run through the api pods.
 */
const RELEASE = 'tw';
const FULLNAME = `${RELEASE}-tickwheel`;
const K8S_NAMESPACE = 'tickwheel';
const IN_CLUSTER_DB = 'mysql://root@mariadb.db.svc.cluster.local:3306/tickwheel';
const IN_CLUSTER_REDIS = 'redis://redis-master.db.svc:6379';
const URLS = { [IN_CLUSTER_DB]: MYSQL_URL, [IN_CLUSTER_REDIS]: REDIS_URL };
const TASKS_PER_HANDLER = 50;
const FINAL = new Set(['SUCCESS', 'FAILED', 'TIMEOUT', 'CANCELLED']);
/** The executor pods of the default values (2 built-in) and the extra executor (1), by their made-up names. */
const GREETING = `${FULLNAME}-executor-greeting-0`;
const EXECUTORS = [`${FULLNAME}-executor-0`, `${FULLNAME}-executor-1`, GREETING];

type TaskView = {
  requestId: string;
  status: string;
  nodeId: string | null;
  handler: string;
  result: unknown;
  triggerSource: string;
};

describe('the rendered Helm chart boots and runs work on the right pods', () => {
  const started = Date.now();
  const ns = uniqueNamespace('boot');
  const secretKey = randomBytes(32).toString('hex');
  const values = {
    secrets: { dbUrl: IN_CLUSTER_DB, redisUrl: IN_CLUSTER_REDIS, secretKey },
    // Redis is shared with other test runs: the namespace keeps this cluster's keys and rows apart.
    config: { TICKWHEEL_NAMESPACE: ns },
    extraExecutors: [{ name: 'greeting', args: ['node', 'dist/examples/greeting/main.js'] }],
  };
  let pods: RenderedPod[] = [];
  const running: LocalPod[] = [];
  let clients: TickwheelClient[] = [];
  const perPod = new Map<string, number>();
  let cronRuns = 0;
  let bootMs = 0;
  const byDeployment = (suffix: string) => running.filter((p) => p.pod.deployment === `${FULLNAME}${suffix}`);
  /** The pod whose NODE_NAME starts the node id (`<host>-<6 hex>-<yyyymmdd>-<seq>`, NodeMembership.register). */
  const podOf = (nodeId: string | null) =>
    running.find((p) => nodeId !== null && new RegExp(`^${p.pod.name}-[0-9a-f]{6}-\\d{8}-\\d+$`).test(nodeId));

  beforeAll(async () => {
    const objects = parseManifests(helmTemplate({ release: RELEASE, namespace: K8S_NAMESPACE, values }));
    pods = renderedPods(objects, K8S_NAMESPACE);
    const t0 = Date.now();
    for (const pod of pods) running.push(await startPod(pod, URLS));
    // Seven Node processes boot at once (13-19 s on the 2-core machine under load); the limits only catch a hang.
    await Promise.all(running.map((p) => waitProbe(p, 'readiness', 60_000)));
    bootMs = Date.now() - t0;
  }, 75_000);

  afterAll(async () => {
    await Promise.all(running.map((p) => p.proc.stop(1000)));
    const ds = await new DataSource(dataSourceOptions({ database: { type: 'mysql', url: MYSQL_URL } })).initialize();
    await deleteNamespaceRows(ds, ns, { definitions: true });
    await ds.query('DELETE FROM api_client WHERE app_id LIKE ?', [`${ns}%`]);
    await ds.destroy();
  });

  it('should render one pod per replica with the roles, the secrets and the pod name in their env', () => {
    const shape = pods.map((p) => [p.deployment, p.env.ROLES, p.labels['app.kubernetes.io/component']]);
    expect(shape.sort()).toEqual([
      [`${FULLNAME}-api`, 'api', 'api'],
      [`${FULLNAME}-api`, 'api', 'api'],
      [`${FULLNAME}-executor`, 'executor', 'executor'],
      [`${FULLNAME}-executor`, 'executor', 'executor'],
      [`${FULLNAME}-executor-greeting`, 'executor', 'executor'],
      [`${FULLNAME}-scheduler`, 'scheduler', 'scheduler'],
      [`${FULLNAME}-scheduler`, 'scheduler', 'scheduler'],
    ]);
    for (const p of pods) {
      expect([p.env.DB_URL, p.env.REDIS_URL, p.env.TICKWHEEL_SECRET_KEY]).toEqual([
        IN_CLUSTER_DB,
        IN_CLUSTER_REDIS,
        secretKey,
      ]);
      expect([p.env.NODE_NAME, p.env.TICKWHEEL_NAMESPACE]).toEqual([p.name, ns]);
      expect(p.liveness?.path).toBe('/health/live');
      expect(p.readiness?.path).toBe('/health/ready');
    }
    // The chart renders no command: the image's ENTRYPOINT (tini) runs the rendered args.
    const greeting = pods.find((p) => p.deployment.endsWith('-greeting'));
    expect(greeting?.argv).toEqual(['/usr/bin/tini', '--', 'node', 'dist/examples/greeting/main.js']);
    for (const p of pods.filter((x) => x !== greeting))
      expect(p.argv).toEqual(['/usr/bin/tini', '--', 'node', 'dist/src/main.js']);
    // The processes running: that argv through tini, or without tini here what follows its `--`.
    for (const p of running) {
      const cmdline = readFileSync(`/proc/${p.proc.pid}/cmdline`, 'utf8').split('\0').slice(0, -1);
      expect(cmdline).toEqual(p.skippedTini ? p.pod.argv.slice(2) : p.pod.argv);
    }
  });

  it('should pass the liveness probes and have one scheduler lead while the other stands by', async () => {
    await Promise.all(running.map((p) => waitProbe(p, 'liveness', 5000)));
    const leading = async () => {
      const metrics = await Promise.all(byDeployment('-scheduler').map((p) => fetch(`${p.url}/metrics`)));
      const texts = await Promise.all(metrics.map((r) => r.text()));
      return texts.map((t) => Number(/^tickwheel_leader(?:\{[^}]*\})? (\d+)$/m.exec(t)?.[1]));
    };
    await waitFor('a scheduler to lead', async () => (await leading()).includes(1), 20_000);
    expect((await leading()).sort()).toEqual([0, 1]);
  }, 30_000);

  it('should create an API client in an api pod and see the three executor pods, with their handlers', async () => {
    const [api] = byDeployment('-api');
    // What `kubectl exec deploy/<fullname>-api -- node dist/src/bin/create-app.js ...` runs: the pod's own env.
    const cli = startCommand(['node', 'dist/src/bin/create-app.js', `${ns}-app`, '--rate-limit', '0'], api.env);
    const code = await cli.exited;
    expect({ code, output: code === 0 ? '' : cli.output() }).toEqual({ code: 0, output: '' });
    const secret = /^Secret: +(\S+)$/m.exec(cli.output())?.[1] as string;
    // One client per api pod, as the api Service would spread requests over them.
    clients = byDeployment('-api').map((p) => new TickwheelClient({ baseUrl: p.url, appId: `${ns}-app`, secret }));
    // An admin sees every executor with its host and handlers (another app only those serving its work).
    const adminCli = startCommand(['node', 'dist/src/bin/create-app.js', `${ns}-admin`, '--admin'], api.env);
    expect(await adminCli.exited).toBe(0);
    const adminSecret = /^Secret: +(\S+)$/m.exec(adminCli.output())?.[1] as string;
    const admin = new TickwheelClient({ baseUrl: api.url, appId: `${ns}-admin`, secret: adminSecret });
    type Node = { host: string; handlers: string[] };
    const nodes = async () => (await admin.request<{ items: Node[] }>('GET', '/api/nodes')).body.items;
    await waitFor('the executor pods live', async () => (await nodes()).length === EXECUTORS.length, 20_000);
    const seen = Object.fromEntries((await nodes()).map((n) => [n.host, [...n.handlers].sort()]));
    expect(seen).toEqual({
      [EXECUTORS[0]]: ['http', 'noop'],
      [EXECUTORS[1]]: ['http', 'noop'],
      [EXECUTORS[2]]: ['greeting.hello', 'http', 'noop'],
    });
  }, 30_000);

  it('should run 100 signed tasks and a 2-second cron job to SUCCESS on the pods that serve them', async () => {
    const api = (i: number) => clients[i % clients.length];
    const cron = await createJob(api(0), {
      code: 'boot-every-2s',
      handler: 'noop',
      triggerType: 'CRON',
      triggerExpr: '*/2 * * * * *',
    });
    const bodies = Array.from({ length: TASKS_PER_HANDLER }, (_, i) => [
      { requestId: `noop-${i}`, handler: 'noop' },
      { requestId: `greet-${i}`, handler: 'greeting.hello', params: { name: `pod ${i}` } },
    ]).flat();
    for (let i = 0; i < bodies.length; i += 10) {
      const res = await Promise.all(bodies.slice(i, i + 10).map((b, j) => api(j).submitTask(b)));
      expect(res.map((r) => r.status)).toEqual(res.map(() => 202));
    }
    const done = new Map<string, TaskView>();
    await waitFor(
      'every task final',
      async () => {
        const open = bodies.filter((b) => !done.has(b.requestId));
        for (const r of await Promise.all(open.map((b, j) => api(j).getTask(b.requestId)))) {
          const t = r.body as TaskView;
          if (FINAL.has(t.status)) done.set(t.requestId, t);
        }
        return done.size === bodies.length;
      },
      30_000,
      250,
    );
    for (const t of done.values()) {
      const pod = podOf(t.nodeId)?.pod.name ?? `(no pod for ${t.nodeId})`;
      perPod.set(pod, (perPod.get(pod) ?? 0) + 1);
      expect([t.requestId, t.status]).toEqual([t.requestId, 'SUCCESS']);
      if (t.handler === 'noop') expect(EXECUTORS).toContain(pod);
      else {
        expect([t.requestId, pod]).toEqual([t.requestId, GREETING]);
        expect(t.result).toMatchObject({ greeting: `Hello, pod ${t.requestId.slice('greet-'.length)}!` });
      }
    }
    // Every executor pod serves noop (the greeting app's too): round robin gives the built-in ones their share.
    expect(EXECUTORS.filter((e) => e !== GREETING).map((e) => perPod.get(e) ?? 0)).not.toContain(0);

    const fires = async () =>
      (await api(0).request<{ items: TaskView[] }>('GET', `/api/jobs/${cron.id}/instances?limit=50`)).body.items;
    await waitFor(
      'three cron fires done',
      async () => (await fires()).filter((f) => f.status === 'SUCCESS').length >= 3,
    );
    expect((await api(1).request('POST', `/api/jobs/${cron.id}/pause`)).status).toBe(200);
    for (const f of (await fires()).filter((x) => x.status === 'SUCCESS')) {
      expect([f.triggerSource, EXECUTORS.includes(podOf(f.nodeId)?.pod.name ?? '')]).toEqual(['SCHEDULE', true]);
      cronRuns++;
    }
  }, 50_000);

  it('should stop every pod cleanly on SIGTERM within its terminationGracePeriodSeconds', async () => {
    const t0 = Date.now();
    const ends = await Promise.all(
      running.map(async (p) => {
        await p.proc.stop(p.pod.graceSeconds * 1000);
        // Nest re-raises SIGTERM once closed; tini reports that end as 128 + 15, the container's exit code.
        const { exitCode, signalCode } = p.proc.child;
        const clean = exitCode === 0 || signalCode === 'SIGTERM' || (!p.skippedTini && exitCode === 143);
        return [p.pod.name, clean, exitCode ?? signalCode] as const;
      }),
    );
    expect(ends.filter(([, clean]) => !clean)).toEqual([]);
    const tasks = [...perPod].map(([pod, n]) => `${pod.slice(FULLNAME.length + 1)}=${n}`).join(' ');
    const seconds = ((Date.now() - started) / 1000).toFixed(1);
    const skipped = running.filter((p) => p.skippedTini).length;
    const init = skipped
      ? `${TINI} not on this machine: ${skipped} pods ran what follows its -- directly`
      : `through ${TINI}`;
    process.stdout.write(
      `[chart-boot] ${running.length} pods from helm template (${init}) ready in ${bootMs} ms; ` +
        `tasks per pod: ${tasks}; cron runs ${cronRuns}; SIGTERM to all exited in ${Date.now() - t0} ms; ` +
        `${seconds} s in all\n`,
    );
  }, 40_000);
});
