import { execFileSync, spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { loadAll } from 'js-yaml';
import { getMetadataStorage } from 'class-validator';
import { ConfigMap, Secret, Service, ServiceAccount } from 'kubernetes-models/v1';
import { Deployment } from 'kubernetes-models/apps/v1';
import { HorizontalPodAutoscaler } from 'kubernetes-models/autoscaling/v2';
import { Ingress, NetworkPolicy } from 'kubernetes-models/networking.k8s.io/v1';
import { PodDisruptionBudget } from 'kubernetes-models/policy/v1';
import { EnvDto } from '../../src/config/env.dto.js';

/*
 * What the static chart checks (chart.spec.ts, chart-values.spec.ts) share: the real helm (scripts/k8s-tools.mjs),
 * rendering, the Kubernetes schemas (kubernetes-models), the settings the app knows and a pod's environment.
 */
export const ROOT = process.cwd();
export const CHART = join(ROOT, 'deploy', 'helm', 'tickwheel');
const EXAMPLES = join(CHART, 'examples');
const HELM = (
  JSON.parse(execFileSync(process.execPath, [join(ROOT, 'scripts', 'k8s-tools.mjs')]).toString()) as {
    helm: string;
  }
).helm;
export const SECRETS = [
  'secrets.dbUrl=mysql://tw:pw@mariadb:3306/tickwheel',
  'secrets.redisUrl=redis://redis:6379',
  `secrets.secretKey=${'ab'.repeat(32)}`,
].flatMap((s) => ['--set', s]);
/** Set per Deployment by the chart itself, never from `config`. */
export const CHART_MANAGED = [
  'DB_URL',
  'REDIS_URL',
  'REDIS_PASSWORD',
  'REDIS_SENTINEL_PASSWORD',
  'TICKWHEEL_SECRET_KEY',
  'ROLES',
  'NODE_NAME',
];

export interface Meta {
  name: string;
  labels?: Record<string, string>;
}
export interface K8sObject {
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
export interface DeploymentObject extends K8sObject {
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
export function helm(args: string[]): { status: number | null; stdout: string; stderr: string } {
  // No cluster is reached: KUBECONFIG points nowhere (install runs only as --dry-run=client).
  const env = { ...process.env, HELM_CACHE_HOME: '/tmp/tw-helm-cache', KUBECONFIG: '/dev/null' };
  const r = spawnSync(HELM, args, { encoding: 'utf8', env });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** `helm template tw <chart> ...args` as objects. @throws with helm's stderr when rendering fails. */
export function render(args: string[]): K8sObject[] {
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
export function validateObject(obj: K8sObject): void {
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
export function knownSettings(): Set<string> {
  const metas = getMetadataStorage().getTargetValidationMetadatas(EnvDto, '', true, false);
  return new Set(metas.map((m) => m.propertyName));
}

/** ConfigMap keys that are not settings of the app, or that the chart sets itself. */
export function unknownSettings(cm: K8sObject, known: Set<string>): string[] {
  return Object.keys((cm.data as Record<string, string>) ?? {}).filter(
    (k) => !known.has(k) || CHART_MANAGED.includes(k),
  );
}

/** The environment a Deployment's container gets: its ConfigMaps in envFrom order, then env (secrets resolved). */
export function podEnv(
  d: DeploymentObject,
  objects: K8sObject[],
  secretData: Record<string, string>,
): Record<string, string> {
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

export const deployments = (objects: K8sObject[]) =>
  objects.filter((o) => o.kind === 'Deployment') as DeploymentObject[];
export const envOf = (d: DeploymentObject, name: string) =>
  d.spec.template.spec.containers[0].env.find((e) => e.name === name);
export const subset = (sel: Record<string, string>, labels: Record<string, string> = {}) =>
  Object.entries(sel).every(([k, v]) => labels[k] === v);

export const CASES = [
  { name: 'default values (+ secrets)', args: SECRETS, margin: 20 },
  { name: 'examples/production.yaml', args: ['-f', join(EXAMPLES, 'production.yaml')], margin: 20 },
  { name: 'examples/all-features.yaml', args: ['-f', join(EXAMPLES, 'all-features.yaml')], margin: 25 },
];

/** Each case's rendered objects, by case name. */
export function renderCases(): Map<string, K8sObject[]> {
  return new Map(CASES.map((c) => [c.name, render(c.args)]));
}
