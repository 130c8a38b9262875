import { execFileSync, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { load, loadAll } from 'js-yaml';
import { getMetadataStorage } from 'class-validator';
import { ConfigMap, Secret, Service, ServiceAccount } from 'kubernetes-models/v1';
import { Deployment } from 'kubernetes-models/apps/v1';
import { HorizontalPodAutoscaler } from 'kubernetes-models/autoscaling/v2';
import { Ingress, NetworkPolicy } from 'kubernetes-models/networking.k8s.io/v1';
import { PodDisruptionBudget } from 'kubernetes-models/policy/v1';
import { loadConfig } from '../../src/config/index.js';
import { EnvDto } from '../../src/config/env.dto.js';
import { HealthController } from '../../src/modules/observability/index.js';

/**
 * Static checks of the Helm chart (deploy/helm/tickwheel) with the real helm (scripts/k8s-tools.mjs): lint, the
 * rendered objects against the Kubernetes schemas (kubernetes-models), and what the app needs of them: ROLES per
 * Deployment, only settings the app knows, every pod's environment accepted by loadConfig, probe paths the app
 * serves, grace periods from the shutdown settings, a strict values schema and no default secrets.
 */
const ROOT = process.cwd();
const CHART = join(ROOT, 'deploy', 'helm', 'tickwheel');
const EXAMPLES = join(CHART, 'examples');
const HELM = (
  JSON.parse(execFileSync(process.execPath, [join(ROOT, 'scripts', 'k8s-tools.mjs')]).toString()) as {
    helm: string;
  }
).helm;
const SECRETS = [
  'secrets.dbUrl=mysql://tw:pw@mariadb:3306/tickwheel',
  'secrets.redisUrl=redis://redis:6379',
  `secrets.secretKey=${'ab'.repeat(32)}`,
].flatMap((s) => ['--set', s]);
/** Set per Deployment by the chart itself, never from `config`. */
const CHART_MANAGED = ['DB_URL', 'REDIS_URL', 'TICKWHEEL_SECRET_KEY', 'ROLES', 'NODE_NAME'];

interface Meta {
  name: string;
  labels?: Record<string, string>;
}
interface K8sObject {
  apiVersion: string;
  kind: string;
  metadata: Meta;
  [field: string]: unknown;
}
interface EnvVar {
  name: string;
  value?: string;
  valueFrom?: { fieldRef?: { fieldPath: string }; secretKeyRef?: { name: string; key: string } };
}
interface Probe {
  httpGet: { path: string; port: string | number };
}
interface Container {
  command?: string[];
  args?: string[];
  ports: { name: string; containerPort: number }[];
  envFrom: { configMapRef: { name: string } }[];
  env: EnvVar[];
  startupProbe: Probe;
  livenessProbe: Probe;
  readinessProbe: Probe;
  securityContext: {
    runAsNonRoot?: boolean;
    runAsUser?: number;
    readOnlyRootFilesystem?: boolean;
    allowPrivilegeEscalation?: boolean;
    capabilities?: { drop?: string[] };
  };
  volumeMounts: { name: string; mountPath: string }[];
}
interface DeploymentObject extends K8sObject {
  spec: {
    replicas?: number;
    selector: { matchLabels: Record<string, string> };
    template: {
      metadata: Meta;
      spec: {
        terminationGracePeriodSeconds: number;
        securityContext: { runAsNonRoot?: boolean; runAsUser?: number; seccompProfile?: { type: string } };
        containers: Container[];
        volumes: { name: string; emptyDir?: object }[];
      };
    };
  };
}

/** Runs helm; returns its exit status and output (never throws, so a test can expect a failure). */
function helm(args: string[]): { status: number | null; stdout: string; stderr: string } {
  // No cluster is reached: KUBECONFIG points nowhere (install runs only as --dry-run=client).
  const env = { ...process.env, HELM_CACHE_HOME: '/tmp/tw-helm-cache', KUBECONFIG: '/dev/null' };
  const r = spawnSync(HELM, args, { encoding: 'utf8', env });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** `helm template tw <chart> ...args` as objects. @throws with helm's stderr when rendering fails. */
function render(args: string[]): K8sObject[] {
  const r = helm(['template', 'tw', CHART, ...args]);
  if (r.status !== 0) throw new Error(`helm template failed: ${r.stderr}`);
  return (loadAll(r.stdout) as (K8sObject | null)[]).filter((o): o is K8sObject => o !== null);
}

/** A kubernetes-models class: built from a plain object, validate() throws on a schema violation. */
type Model = { apiVersion: string; kind: string } & (new (o: K8sObject) => { validate(): void });
const MODEL_CLASSES = [ConfigMap, Secret, Service, ServiceAccount, Deployment, HorizontalPodAutoscaler, Ingress];
const MODELS = new Map(
  [...MODEL_CLASSES, NetworkPolicy, PodDisruptionBudget].map((M) => {
    const model = M as unknown as Model;
    return [`${model.apiVersion}/${model.kind}`, model];
  }),
);

/** Checks one object against its Kubernetes schema; monitoring.coreos.com has no model, so its shape is checked. */
function validateObject(obj: K8sObject): void {
  const key = `${obj.apiVersion}/${obj.kind}`;
  if (obj.apiVersion === 'monitoring.coreos.com/v1') {
    // No kubernetes-models class for the Prometheus operator's CRDs: the fields the operator requires.
    const spec = obj.spec as { endpoints?: unknown[]; selector?: object; groups?: { name: string; rules: object[] }[] };
    if (obj.kind === 'ServiceMonitor') expect(spec.endpoints?.length && spec.selector).toBeTruthy();
    else if (obj.kind === 'PrometheusRule')
      expect(spec.groups?.every((g) => typeof g.name === 'string' && g.rules.length > 0)).toBe(true);
    else throw new Error(`no check for ${key}`);
    return;
  }
  const Model = MODELS.get(key);
  if (!Model) throw new Error(`no Kubernetes model for ${key} (${obj.metadata.name})`);
  new Model(obj).validate();
}

/** Every setting the app reads (EnvDto's validated properties). */
function knownSettings(): Set<string> {
  const metas = getMetadataStorage().getTargetValidationMetadatas(EnvDto, '', true, false);
  return new Set(metas.map((m) => m.propertyName));
}

/** ConfigMap keys that are not settings of the app, or that the chart sets itself. */
function unknownSettings(cm: K8sObject, known: Set<string>): string[] {
  return Object.keys((cm.data as Record<string, string>) ?? {}).filter(
    (k) => !known.has(k) || CHART_MANAGED.includes(k),
  );
}

/** The environment a Deployment's container gets: its ConfigMaps in envFrom order, then env (secrets resolved). */
function podEnv(d: DeploymentObject, objects: K8sObject[], secretData: Record<string, string>): Record<string, string> {
  const c = d.spec.template.spec.containers[0];
  const env: Record<string, string> = {};
  for (const { configMapRef } of c.envFrom) {
    const cm = objects.find((o) => o.kind === 'ConfigMap' && o.metadata.name === configMapRef.name);
    if (!cm) throw new Error(`${d.metadata.name}: no ConfigMap ${configMapRef.name}`);
    Object.assign(env, cm.data);
  }
  for (const v of c.env) {
    if (v.value !== undefined) env[v.name] = v.value;
    else if (v.valueFrom?.fieldRef) env[v.name] = `${d.metadata.name}-abc12`;
    else if (v.valueFrom?.secretKeyRef) env[v.name] = secretData[v.valueFrom.secretKeyRef.key];
  }
  return env;
}

const deployments = (objects: K8sObject[]) => objects.filter((o) => o.kind === 'Deployment') as DeploymentObject[];
const envOf = (d: DeploymentObject, name: string) =>
  d.spec.template.spec.containers[0].env.find((e) => e.name === name);
const subset = (sel: Record<string, string>, labels: Record<string, string> = {}) =>
  Object.entries(sel).every(([k, v]) => labels[k] === v);

const CASES = [
  { name: 'default values (+ secrets)', args: SECRETS, margin: 20 },
  { name: 'examples/production.yaml', args: ['-f', join(EXAMPLES, 'production.yaml')], margin: 20 },
  { name: 'examples/all-features.yaml', args: ['-f', join(EXAMPLES, 'all-features.yaml')], margin: 25 },
];

describe('Helm chart deploy/helm/tickwheel', () => {
  const known = knownSettings();
  const rendered = new Map(CASES.map((c) => [c.name, render(c.args)]));

  it('should pass helm lint --strict with default values and with every example', () => {
    for (const args of [SECRETS, ...CASES.slice(1).map((c) => c.args)]) {
      const r = helm(['lint', '--strict', CHART, ...args]);
      expect(`${r.stdout}${r.stderr}`).toContain('0 chart(s) failed');
      expect(r.status).toBe(0);
    }
  });

  describe.each(CASES)('$name', ({ name, margin }) => {
    const objects = rendered.get(name)!;
    const secret = objects.find((o) => o.kind === 'Secret');
    // With existingSecret nothing is rendered: stand-in values of the right shape.
    const secretData = secret
      ? Object.fromEntries(
          Object.entries(secret.data as Record<string, string>).map(([k, v]) => [
            k,
            Buffer.from(v, 'base64').toString(),
          ]),
        )
      : { DB_URL: 'mysql://x@db:3306/x', REDIS_URL: 'redis://r:6379', TICKWHEEL_SECRET_KEY: 'cd'.repeat(32) };

    it('should render only objects valid against their Kubernetes schema', () => {
      expect(objects.length).toBeGreaterThan(5);
      for (const o of objects) expect(() => validateObject(o)).not.toThrow();
      // The check can fail: a port given by name where the schema wants a number.
      const broken = structuredClone(deployments(objects)[0]);
      (broken.spec.template.spec.containers[0].ports[0] as { containerPort: unknown }).containerPort = 'http';
      expect(() => validateObject(broken)).toThrow(/containerPort must be integer/);
    });

    it('should run one Deployment per role with its ROLES, NODE_NAME and the secrets by reference', () => {
      const ds = deployments(objects);
      const byName = new Map(ds.map((d) => [d.metadata.name.replace(/^tw-tickwheel-/, ''), d]));
      for (const role of ['api', 'scheduler', 'executor']) {
        const d = byName.get(role)!;
        expect(envOf(d, 'ROLES')?.value).toBe(role);
        expect(d.spec.template.metadata.labels?.['app.kubernetes.io/component']).toBe(role);
      }
      for (const d of ds) {
        expect(envOf(d, 'NODE_NAME')?.valueFrom?.fieldRef?.fieldPath).toBe('metadata.name');
        for (const key of ['DB_URL', 'REDIS_URL', 'TICKWHEEL_SECRET_KEY'])
          expect(envOf(d, key)?.valueFrom?.secretKeyRef?.key).toBe(key);
        // No command: the image's ENTRYPOINT (tini) stays PID 1 in front of args.
        expect(d.spec.template.spec.containers[0]).not.toHaveProperty('command');
        expect(d.spec.template.spec.containers[0].args?.length).toBeGreaterThan(0);
        // No Deployment's selector may take another's pods (the executors share component=executor).
        for (const other of ds.filter((o) => o !== d))
          expect(subset(d.spec.selector.matchLabels, other.spec.template.metadata.labels)).toBe(false);
        expect(subset(d.spec.selector.matchLabels, d.spec.template.metadata.labels)).toBe(true);
      }
      const extra = [...byName.keys()].filter((k) => k.startsWith('executor-'));
      for (const k of extra) expect(envOf(byName.get(k)!, 'ROLES')?.value).toBe('executor');
      expect(byName.size).toBe(3 + extra.length);
    });

    it('should put only settings the app knows in the ConfigMaps, and give every pod an environment it accepts', () => {
      for (const cm of objects.filter((o) => o.kind === 'ConfigMap')) expect(unknownSettings(cm, known)).toEqual([]);
      for (const d of deployments(objects)) {
        const env = podEnv(d, objects, secretData);
        const uid = d.spec.template.spec.securityContext.runAsUser;
        const config = loadConfig(env, uid);
        expect(config.shape).toBe('cluster');
        expect(config.http.port).toBe(d.spec.template.spec.containers[0].ports[0].containerPort);
      }
    });

    it('should probe paths the health controller serves, on the http port', () => {
      const base = Reflect.getMetadata('path', HealthController) as string;
      const routes = Object.getOwnPropertyNames(HealthController.prototype)
        .map((m) => Reflect.getMetadata('path', (HealthController.prototype as unknown as Record<string, object>)[m]))
        .filter((p): p is string => typeof p === 'string')
        .map((p) => `/${base}/${p}`);
      expect(routes).toEqual(expect.arrayContaining(['/health/live', '/health/ready']));
      for (const d of deployments(objects)) {
        const c = d.spec.template.spec.containers[0];
        expect(routes).toContain(c.livenessProbe.httpGet.path);
        expect(routes).toContain(c.startupProbe.httpGet.path);
        expect(c.readinessProbe.httpGet.path).toBe('/health/ready');
        expect(c.livenessProbe.httpGet.path).toBe('/health/live');
        expect(c.ports.map((p) => p.name)).toEqual(['http']);
        expect(c.livenessProbe.httpGet.port).toBe('http');
      }
    });

    it('should give each pod a termination grace above its shutdown grace (rounded up) plus the margin', () => {
      for (const d of deployments(objects)) {
        const config = loadConfig(podEnv(d, objects, secretData), 1000);
        const role = config.roles[0];
        const graceMs =
          role === 'executor'
            ? config.executorShutdownGraceMs
            : role === 'scheduler'
              ? config.callbacks.shutdownGraceMs
              : 0;
        const seconds = d.spec.template.spec.terminationGracePeriodSeconds;
        expect(seconds).toBe(Math.ceil(graceMs / 1000) + margin);
        expect(seconds * 1000).toBeGreaterThan(graceMs);
      }
    });

    it('should run every container restricted: numeric non-root user, read-only root, no capabilities', () => {
      for (const d of deployments(objects)) {
        const pod = d.spec.template.spec;
        expect(pod.securityContext.runAsNonRoot).toBe(true);
        expect(pod.securityContext.runAsUser).toBeGreaterThan(0);
        expect(pod.securityContext.seccompProfile?.type).toBe('RuntimeDefault');
        const sc = pod.containers[0].securityContext;
        expect(sc).toMatchObject({ readOnlyRootFilesystem: true, allowPrivilegeEscalation: false });
        expect(sc.capabilities?.drop).toEqual(['ALL']);
        const tmp = pod.containers[0].volumeMounts.find((m) => m.mountPath === '/tmp');
        expect(pod.volumes.find((v) => v.name === tmp?.name)?.emptyDir).toBeDefined();
      }
    });

    it('should give every Deployment a PodDisruptionBudget over exactly its pods, and aim each HPA at one', () => {
      const ds = deployments(objects);
      const pdbs = objects.filter((o) => o.kind === 'PodDisruptionBudget');
      for (const d of ds) {
        const own = pdbs.filter((p) =>
          subset((p.spec as DeploymentObject['spec']).selector.matchLabels, d.spec.template.metadata.labels),
        );
        expect(own.map((p) => p.metadata.name)).toEqual([d.metadata.name]);
      }
      for (const h of objects.filter((o) => o.kind === 'HorizontalPodAutoscaler')) {
        const target = ds.find((d) => d.metadata.name === (h.spec as { scaleTargetRef: Meta }).scaleTargetRef.name);
        expect(target?.spec.replicas).toBeUndefined(); // the HPA owns the count
      }
    });
  });

  it('should render two schedulers by default and the Secret only without existingSecret', () => {
    const defaults = rendered.get(CASES[0].name)!;
    expect(deployments(defaults).find((d) => d.metadata.name === 'tw-tickwheel-scheduler')?.spec.replicas).toBe(2);
    expect(defaults.filter((o) => o.kind === 'Secret').map((o) => o.metadata.name)).toEqual(['tw-tickwheel-secret']);
    const production = rendered.get(CASES[1].name)!;
    expect(production.filter((o) => o.kind === 'Secret')).toEqual([]);
    for (const d of deployments(production))
      expect(envOf(d, 'DB_URL')?.valueFrom?.secretKeyRef?.name).toBe('tickwheel-secrets');
  });

  it('should run the extra executor greeting with its own args, label and settings', () => {
    const all = rendered.get(CASES[2].name)!;
    const d = deployments(all).find((x) => x.metadata.name === 'tw-tickwheel-executor-greeting')!;
    expect(d.spec.template.spec.containers[0].args).toEqual(['node', 'dist/examples/greeting/main.js']);
    expect(d.spec.template.metadata.labels).toMatchObject({
      'app.kubernetes.io/component': 'executor',
      'tickwheel.io/executor': 'greeting',
    });
    const config = loadConfig(
      podEnv(d, all, { DB_URL: 'mysql://db/x', REDIS_URL: 'redis://r', TICKWHEEL_SECRET_KEY: 'ef'.repeat(32) }),
      1000,
    );
    expect(config.executorConcurrency).toBe(4);
  });

  it('should render args by default and a command only where one is set, to replace the entrypoint', () => {
    const container = (objects: K8sObject[], suffix: string) =>
      deployments(objects).find((d) => d.metadata.name === `tw-tickwheel-${suffix}`)!.spec.template.spec.containers[0];
    const defaults = container(rendered.get(CASES[0].name)!, 'executor');
    expect([defaults.command, defaults.args]).toEqual([undefined, ['node', 'dist/src/main.js']]);
    const extra = (i: number, key: string, list: string) => ['--set', `extraExecutors[${i}].${key}={${list}}`];
    const objects = render([
      ...SECRETS,
      ...['--set', 'command={/usr/bin/tini,--,node}', '--set', 'args={dist/src/main.js}'],
      ...['--set', 'extraExecutors[0].name=own', ...extra(0, 'command', 'node,dist/examples/greeting/main.js')],
    ]);
    expect([container(objects, 'api').command, container(objects, 'api').args]).toEqual([
      ['/usr/bin/tini', '--', 'node'],
      ['dist/src/main.js'],
    ]);
    // An extra executor takes neither the top-level command nor its args.
    const own = container(objects, 'executor-own');
    expect([own.command, own.args]).toEqual([['node', 'dist/examples/greeting/main.js'], undefined]);
    const neither = helm(['template', 'tw', CHART, ...SECRETS, '--set', 'extraExecutors[0].name=x']);
    expect(neither.status).not.toBe(0);
    expect(neither.stderr).toMatch(/anyOf[\s\S]*missing property 'args'[\s\S]*missing property 'command'/);
  });

  it('should render the PrometheusRule groups from files/alerts.yml unchanged', () => {
    const rule = rendered.get(CASES[2].name)!.find((o) => o.kind === 'PrometheusRule')!;
    const file = load(readFileSync(join(CHART, 'files', 'alerts.yml'), 'utf8')) as { groups: unknown[] };
    expect((rule.spec as { groups: unknown[] }).groups).toEqual(file.groups);
  });

  it('should accept in the values schema exactly the settings the app knows, less those the chart sets', () => {
    const schema = JSON.parse(readFileSync(join(CHART, 'values.schema.json'), 'utf8')) as {
      definitions: { config: { properties: Record<string, unknown> } };
    };
    const expected = [...known].filter((k) => !CHART_MANAGED.includes(k));
    expect(Object.keys(schema.definitions.config.properties).sort()).toEqual(expected.sort());
  });

  it('should refuse a typo in values, in a setting name, and a ConfigMap key the app does not know', () => {
    const typo = helm(['template', 'tw', CHART, ...SECRETS, '--set', 'executor.replcas=3']);
    expect(typo.status).not.toBe(0);
    expect(typo.stderr).toContain('replcas');
    const setting = helm(['template', 'tw', CHART, ...SECRETS, '--set', 'config.EXECUTOR_CONCURENCY=4']);
    expect(setting.status).not.toBe(0);
    expect(setting.stderr).toContain('EXECUTOR_CONCURENCY');
    for (const key of ['comand={node}', 'extraExecutors[0].arg={node}']) {
      const r = helm(['template', 'tw', CHART, ...SECRETS, '--set', 'extraExecutors[0].args={node}', '--set', key]);
      expect(r.status).not.toBe(0);
      expect(r.stderr).toMatch(/additional properties '(comand|arg)' not allowed/);
    }
    // The ConfigMap check itself catches what a looser schema would let through.
    const cm = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'x' }, data: { EXECUTOR_CONCURENCY: '4' } };
    expect(unknownSettings(cm, known)).toEqual(['EXECUTOR_CONCURENCY']);
    expect(unknownSettings({ ...cm, data: { ROLES: 'api' } }, known)).toEqual(['ROLES']);
  });

  it('should print in NOTES.txt how to create the first API client in the api Deployment', () => {
    const r = helm(['install', 'tw', CHART, ...SECRETS, '--dry-run=client']);
    expect(r.status).toBe(0);
    const notes = r.stdout.slice(r.stdout.indexOf('NOTES:'));
    const m = /exec deploy\/(\S+) -- \\\s+node dist\/src\/bin\/(\S+)\.js my-app/.exec(notes);
    expect(m).not.toBeNull();
    expect(deployments(rendered.get(CASES[0].name)!).map((d) => d.metadata.name)).toContain(m![1]);
    expect(readFileSync(join(ROOT, 'src', 'bin', `${m![2]}.ts`), 'utf8')).toContain('APP_ID');
  });

  it('should refuse to render without secrets or existingSecret, naming the missing value', () => {
    const r = helm(['template', 'tw', CHART]);
    expect(r.status).not.toBe(0);
    expect(r.stderr).toMatch(/secrets\.dbUrl is required/);
    const noKey = helm(['template', 'tw', CHART, ...SECRETS.slice(0, 4)]);
    expect(noKey.stderr).toMatch(/secrets\.secretKey is required/);
  });
});
