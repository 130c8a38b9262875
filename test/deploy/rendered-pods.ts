import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadAll, YAML11_SCHEMA } from 'js-yaml';
import { ProductProcess, startCommand } from '../utils/process-node.js';
import { imageEnv, type ImageProcess, imageProcess } from './image-env.js';
import { sleep } from '../utils/async.js';
import {
  containerArgv,
  type ContainerSpec,
  type K8sObject,
  type PodIdentity,
  resolveEnv,
  serviceLinkEnv,
  UnresolvableEnv,
} from './pod-env.js';

export { type K8sObject, UnresolvableEnv } from './pod-env.js';

/** The chart under test, relative to the repo root. */
export const CHART = 'deploy/helm/tickwheel';
/** The image's WORKDIR (docker/Dockerfile): the repo root when a container is run locally. */
export const IMAGE_WORKDIR = '/app';
/** The image's init, its ENTRYPOINT `["/usr/bin/tini", "--"]` (docker/Dockerfile). */
export const TINI = '/usr/bin/tini';

/** Path of the real helm binary (scripts/k8s-tools.mjs extracts it once). */
export function helmPath(): string {
  const out = execFileSync(process.execPath, ['scripts/k8s-tools.mjs'], { encoding: 'utf8' });
  return (JSON.parse(out) as { helm: string }).helm;
}

/**
 * `helm template <release> <chart> --namespace <namespace> -f <values>`: the rendered manifests as text.
 * @throws Error with helm's stderr when rendering fails (e.g. a `required` value is missing).
 */
export function helmTemplate(opts: { release: string; namespace: string; values: object; chart?: string }): string {
  const dir = mkdtempSync(join(tmpdir(), 'tw-helm-'));
  try {
    const file = join(dir, 'values.json'); // JSON is YAML: no second serialiser to trust
    writeFileSync(file, JSON.stringify(opts.values));
    const args = ['template', opts.release, opts.chart ?? CHART, '--namespace', opts.namespace, '-f', file];
    return execFileSync(helmPath(), args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  } catch (err) {
    const e = err as { stderr?: string; message: string };
    throw new Error(`helm template failed: ${e.stderr || e.message}`, { cause: err });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * The objects of a multi-document manifest, read with YAML 1.1 scalars as the API server's decoder does
 * (`on`/`yes` are booleans there, so an unquoted one in an env value is refused below, as a cluster would).
 */
export function parseManifests(text: string): K8sObject[] {
  const docs = loadAll(text, { schema: YAML11_SCHEMA }).filter((d) => d !== null && d !== undefined);
  for (const d of docs) {
    const o = d as Partial<K8sObject>;
    if (typeof o !== 'object' || !o.kind || !o.metadata?.name) throw new Error(`not a Kubernetes object: ${d}`);
  }
  return docs as K8sObject[];
}

interface HttpProbe {
  httpGet?: { path?: string; port: number | string; scheme?: string };
}
type Container = ContainerSpec & {
  workingDir?: string;
  ports?: Array<{ name?: string; containerPort: number }>;
  readinessProbe?: HttpProbe;
  livenessProbe?: HttpProbe;
};
interface PodSpec {
  containers: Container[];
  initContainers?: unknown[];
  enableServiceLinks?: boolean;
  serviceAccountName?: string;
  terminationGracePeriodSeconds?: number;
}

/** An HTTP probe as the kubelet would send it: path and container port (a named port resolved). */
export interface Probe {
  path: string;
  port: number;
}

/** One pod of a rendered Deployment, with its one container's process and environment as Kubernetes makes them. */
export interface RenderedPod {
  name: string;
  deployment: string;
  labels: Record<string, string>;
  container: string;
  /** What Kubernetes starts: command or the image's ENTRYPOINT, then args or the image's CMD ({@link containerArgv}). */
  argv: string[];
  /** Exactly the container's environment (envFrom, env, service links), before any local mapping. */
  env: Record<string, string>;
  ports: Record<string, number>;
  readiness?: Probe;
  liveness?: Probe;
  /** terminationGracePeriodSeconds (Kubernetes' default 30). */
  graceSeconds: number;
}

function probeOf(probe: HttpProbe | undefined, ports: Record<string, number>, where: string): Probe | undefined {
  if (!probe) return undefined;
  const get = probe.httpGet;
  if (!get || (get.scheme ?? 'HTTP') !== 'HTTP') throw new UnresolvableEnv(`${where}: only HTTP probes are run`);
  const port = typeof get.port === 'number' ? get.port : ports[get.port];
  if (port === undefined) throw new UnresolvableEnv(`${where}: probe port ${get.port} is not a container port`);
  return { path: get.path ?? '/', port };
}

/**
 * Every pod the rendered Deployments ask for (`spec.replicas`, default 1), named `<deployment>-<i>`, in
 * `namespace`. Pod IPs are 127.0.0.1; Services get made-up cluster IPs (10.96.0.x) for the service links. Every
 * container is taken to run `image` (default docker/Dockerfile's ENTRYPOINT and CMD), as its ENV is for localEnv.
 * @throws UnresolvableEnv on what a local run cannot reproduce (init or sidecar containers, non-HTTP probes) and
 *   on anything {@link resolveEnv} cannot resolve.
 */
export function renderedPods(
  objects: K8sObject[],
  namespace: string,
  image: ImageProcess = imageProcess(),
): RenderedPod[] {
  const services = objects.filter((o) => o.kind === 'Service');
  const master: K8sObject = {
    apiVersion: 'v1',
    kind: 'Service',
    metadata: { name: 'kubernetes' },
    spec: { clusterIP: '10.96.0.1', ports: [{ name: 'https', port: 443 }] },
  };
  const ip = (name: string) => `10.96.0.${10 + services.findIndex((s) => s.metadata.name === name)}`;
  const pods: RenderedPod[] = [];
  for (const dep of objects.filter((o) => o.kind === 'Deployment')) {
    const spec = dep.spec as { replicas?: number; template: { metadata?: K8sObject['metadata']; spec: PodSpec } };
    const tpl = spec.template.spec;
    const where = `Deployment ${dep.metadata.name}`;
    if (tpl.initContainers?.length) throw new UnresolvableEnv(`${where}: init containers are not run locally`);
    if (tpl.containers.length !== 1) throw new UnresolvableEnv(`${where}: one container per pod is run locally`);
    const [c] = tpl.containers;
    if ((c.workingDir ?? IMAGE_WORKDIR) !== IMAGE_WORKDIR)
      throw new UnresolvableEnv(`${where}: workingDir ${c.workingDir} is not the image's ${IMAGE_WORKDIR}`);
    const links = serviceLinkEnv(tpl.enableServiceLinks === false ? [master] : [master, ...services], ip);
    const ports = Object.fromEntries((c.ports ?? []).map((p) => [p.name ?? String(p.containerPort), p.containerPort]));
    for (let i = 0; i < (spec.replicas ?? 1); i++) {
      const pod: PodIdentity = {
        name: `${dep.metadata.name}-${i}`,
        namespace,
        uid: `00000000-0000-4000-8000-${String(pods.length).padStart(12, '0')}`,
        labels: { ...(spec.template.metadata?.labels ?? {}), 'pod-template-hash': 'local' },
        annotations: spec.template.metadata?.annotations ?? {},
        nodeName: 'local-node',
        serviceAccountName: tpl.serviceAccountName ?? 'default',
        podIP: '127.0.0.1',
        hostIP: '127.0.0.1',
      };
      const env = resolveEnv(c, pod, objects, links);
      pods.push({
        name: pod.name,
        deployment: dep.metadata.name,
        labels: pod.labels,
        container: c.name,
        argv: containerArgv(c, image, env),
        env,
        ports,
        readiness: probeOf(c.readinessProbe, ports, `${where} readinessProbe`),
        liveness: probeOf(c.livenessProbe, ports, `${where} livenessProbe`),
        graceSeconds: tpl.terminationGracePeriodSeconds ?? 30,
      });
    }
  }
  return pods;
}

/** A free TCP port on 127.0.0.1 (closed again at once; the caller binds it next). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as { port: number };
      srv.close(() => resolve(port));
    });
  });
}

/**
 * The argv to run locally for a pod's `argv`: the same, unless it starts with {@link TINI} and `tiniExists` is
 * false; then what follows tini's `--`, run directly (`skippedTini`). tini only forwards signals to its child and
 * reaps orphaned processes: node gets SIGTERM either way, so boot, probes, work and the graceful stop are the same.
 * @throws UnresolvableEnv when tini is to be skipped but its argv has no `-- program`.
 */
export function localArgv(argv: string[], tiniExists = existsSync(TINI)): { argv: string[]; skippedTini: boolean } {
  if (argv[0] !== TINI || tiniExists) return { argv, skippedTini: false };
  const sep = argv.indexOf('--');
  if (sep < 0 || sep === argv.length - 1)
    throw new UnresolvableEnv(`${TINI} is not on this machine and '${argv.join(' ')}' names no program after --`);
  return { argv: argv.slice(sep + 1), skippedTini: true };
}

/**
 * A pod started locally: its process, the local port standing for its container port `http`, its base URL, the
 * argv run ({@link localArgv}).
 */
export interface LocalPod {
  pod: RenderedPod;
  argv: string[];
  skippedTini: boolean;
  port: number;
  url: string;
  env: Record<string, string>;
  proc: ProductProcess;
}

/**
 * The pod's process environment for a local run: the image's ENV (docker/Dockerfile) and HOSTNAME (the pod name, as
 * the container runtime sets it) under the pod's own env; then each in-cluster URL of `urls` (exact text, e.g. the
 * DB_URL given in values) replaced by its local one, a path under the image's /app moved to the repo root, PORT moved
 * to `port` (each pod has its own network namespace in Kubernetes, here they share one), PATH and HOME added when
 * unset (the base image and the runtime set them).
 * @throws UnresolvableEnv when PORT is not the container port `http` (the process would fail its probes in a
 *   cluster) or an in-cluster name is left unmapped.
 */
export function localEnv(
  pod: RenderedPod,
  urls: Record<string, string>,
  port: number,
  image: Record<string, string> = imageEnv(),
): Record<string, string> {
  const http = pod.ports.http;
  if (http === undefined) throw new UnresolvableEnv(`${pod.name}: no container port named http`);
  const effective: Record<string, string> = { ...image, HOSTNAME: pod.name, ...pod.env };
  if (effective.PORT !== String(http))
    throw new UnresolvableEnv(`${pod.name}: PORT is '${effective.PORT ?? '(unset)'}', container port http is ${http}`);
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(effective)) {
    let mapped = v;
    for (const [from, to] of Object.entries(urls)) mapped = mapped.split(from).join(to);
    if (/\.svc(\.cluster\.local)?\b/.test(mapped))
      throw new UnresolvableEnv(`${pod.name}: ${k} names an in-cluster host that is not mapped: ${mapped}`);
    if (mapped === IMAGE_WORKDIR || mapped.startsWith(`${IMAGE_WORKDIR}/`))
      mapped = process.cwd() + mapped.slice(IMAGE_WORKDIR.length);
    env[k] = mapped;
  }
  env.PORT = String(port);
  for (const k of ['PATH', 'HOME']) if (!(k in env) && process.env[k] !== undefined) env[k] = process.env[k] as string;
  return env;
}

/** Starts `pod`'s {@link localArgv} from the repo root (the image's WORKDIR /app) with exactly {@link localEnv}. */
export async function startPod(pod: RenderedPod, urls: Record<string, string>): Promise<LocalPod> {
  const port = await freePort();
  const env = localEnv(pod, urls, port);
  const { argv, skippedTini } = localArgv(pod.argv);
  return { pod, argv, skippedTini, port, url: `http://127.0.0.1:${port}`, env, proc: startCommand(argv, env) };
}

/** Maps a container port of the pod to the local one (only `http` is moved). */
function localPort(p: LocalPod, containerPort: number): number {
  if (containerPort !== p.pod.ports.http) throw new Error(`${p.pod.name}: port ${containerPort} is not http`);
  return p.port;
}

/**
 * Polls the pod's rendered probe (`kind`) until it answers 2xx, as the kubelet's HTTP probe counts success.
 * @throws when the probe is not rendered, the process exits first (with its output) or `timeoutMs` passes.
 */
export async function waitProbe(p: LocalPod, kind: 'readiness' | 'liveness', timeoutMs: number): Promise<void> {
  const probe = p.pod[kind];
  if (!probe) throw new Error(`${p.pod.name}: no ${kind} probe rendered`);
  const url = `http://127.0.0.1:${localPort(p, probe.port)}${probe.path}`;
  const end = Date.now() + timeoutMs;
  let exit: number | null | undefined;
  void p.proc.exited.then((code) => (exit = code));
  while (Date.now() < end) {
    if (exit !== undefined) throw new Error(`${p.pod.name} exited (${exit}) before ${kind}:\n${p.proc.output()}`);
    const ok = await fetch(url, { signal: AbortSignal.timeout(1000) }).then(
      (r) => r.status >= 200 && r.status < 400,
      () => false,
    );
    if (ok) return;
    await sleep(100);
  }
  throw new Error(`${p.pod.name}: ${kind} ${probe.path} not passing after ${timeoutMs} ms:\n${p.proc.output()}`);
}
