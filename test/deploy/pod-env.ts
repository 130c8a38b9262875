/** A rendered Kubernetes object, as far as the boot test reads it. */
export interface K8sObject {
  apiVersion: string;
  kind: string;
  metadata: { name: string; namespace?: string; labels?: Record<string, string>; annotations?: Record<string, string> };
  data?: Record<string, unknown>;
  stringData?: Record<string, unknown>;
  spec?: Record<string, unknown>;
}

/** What the downward API (`fieldRef`) can name of a pod; made up locally (podIP is a loopback address). */
export interface PodIdentity {
  name: string;
  namespace: string;
  uid: string;
  labels: Record<string, string>;
  annotations: Record<string, string>;
  nodeName: string;
  serviceAccountName: string;
  podIP: string;
  hostIP: string;
}

interface KeyRef {
  name: string;
  key: string;
  optional?: boolean;
}
interface EnvVar {
  name: string;
  value?: unknown;
  valueFrom?: {
    fieldRef?: { fieldPath: string };
    configMapKeyRef?: KeyRef;
    secretKeyRef?: KeyRef;
    resourceFieldRef?: unknown;
  };
}
interface EnvFromSource {
  prefix?: string;
  configMapRef?: { name: string; optional?: boolean };
  secretRef?: { name: string; optional?: boolean };
}
/** The parts of a container spec that make its environment and its process. */
export interface ContainerSpec {
  name: string;
  command?: string[];
  args?: string[];
  env?: EnvVar[];
  envFrom?: EnvFromSource[];
}

/** A rendered chart error that a real cluster would also refuse (or start the pod without). */
export class UnresolvableEnv extends Error {}

/**
 * `$(VAR)` references in an env value, command or arg, as the kubelet expands them: a defined VAR is replaced,
 * an undefined one is kept as written, `$$` is a literal `$` (Kubernetes third_party/forked/golang/expansion).
 */
export function expandRefs(input: string, lookup: (name: string) => string | undefined): string {
  let out = '';
  for (let i = 0; i < input.length; i++) {
    if (input[i] !== '$' || i + 1 >= input.length) {
      out += input[i];
      continue;
    }
    const next = input[i + 1];
    const close = next === '(' ? input.indexOf(')', i + 2) : -1;
    if (next === '$') {
      out += '$';
      i++;
    } else if (close > i + 2) {
      const name = input.slice(i + 2, close);
      out += lookup(name) ?? `$(${name})`;
      i = close;
    } else out += '$';
  }
  return out;
}

/**
 * The argv Kubernetes starts for `container` of an image that runs `image` by default: `command` if set (then the
 * image's CMD is ignored), else the image's ENTRYPOINT; followed by `args` if set, else (without `command`) the
 * image's CMD. An empty list counts as unset. `$(VAR)` in command and args is expanded against `env`; the image's
 * own ENTRYPOINT and CMD are not expanded.
 * @throws UnresolvableEnv when that leaves nothing to run.
 */
export function containerArgv(
  container: ContainerSpec,
  image: { entrypoint: string[]; cmd: string[] },
  env: Record<string, string>,
): string[] {
  const expand = (list: string[]) => list.map((a) => expandRefs(String(a), (n) => env[n]));
  const command = container.command?.length ? expand(container.command) : null;
  const args = container.args?.length ? expand(container.args) : null;
  const argv = [...(command ?? image.entrypoint), ...(args ?? (command ? [] : image.cmd))];
  if (!argv.length) throw new UnresolvableEnv(`container ${container.name}: nothing to run (no command, no args)`);
  return argv;
}

/** Named object of `kind` among `objects`, or undefined. */
function find(objects: K8sObject[], kind: 'ConfigMap' | 'Secret', name: string): K8sObject | undefined {
  return objects.find((o) => o.kind === kind && o.metadata.name === name);
}

/** String entries of a ConfigMap's `data`, or a Secret's base64 `data` decoded with `stringData` over it. */
export function objectData(obj: K8sObject): Record<string, string> {
  const out: Record<string, string> = {};
  const str = (k: string, v: unknown): string => {
    if (typeof v !== 'string') throw new UnresolvableEnv(`${obj.kind} ${obj.metadata.name}: ${k} is not a string`);
    return v;
  };
  for (const [k, v] of Object.entries(obj.data ?? {}))
    out[k] = obj.kind === 'Secret' ? Buffer.from(str(k, v), 'base64').toString('utf8') : str(k, v);
  // The API server merges stringData into data on write; stringData wins.
  if (obj.kind === 'Secret') for (const [k, v] of Object.entries(obj.stringData ?? {})) out[k] = str(k, v);
  return out;
}

function fieldValue(path: string, pod: PodIdentity): string {
  const meta = /^metadata\.(labels|annotations)\['([^']+)'\]$/.exec(path);
  if (meta) return (meta[1] === 'labels' ? pod.labels : pod.annotations)[meta[2]] ?? '';
  const fields: Record<string, string> = {
    'metadata.name': pod.name,
    'metadata.namespace': pod.namespace,
    'metadata.uid': pod.uid,
    'spec.nodeName': pod.nodeName,
    'spec.serviceAccountName': pod.serviceAccountName,
    'status.podIP': pod.podIP,
    'status.podIPs': pod.podIP,
    'status.hostIP': pod.hostIP,
    'status.hostIPs': pod.hostIP,
  };
  if (!(path in fields)) throw new UnresolvableEnv(`fieldRef ${path} is not a field the downward API gives env`);
  return fields[path];
}

/**
 * The environment Kubernetes gives `container` of `pod` (kubelet makeEnvironmentVariables): `envFrom` sources in
 * order (later wins), then `env` entries in order (they win over envFrom; `$(VAR)` expanded against what is
 * defined so far), then `serviceLinks` for names not yet set. Optional refs to a missing object or key are
 * skipped, as the kubelet does.
 * @throws UnresolvableEnv on a missing non-optional ConfigMap/Secret or key, an unsupported valueFrom, a
 *   non-string value (the API server refuses it) or an envFrom key that is not a valid variable name.
 */
export function resolveEnv(
  container: ContainerSpec,
  pod: PodIdentity,
  objects: K8sObject[],
  serviceLinks: Record<string, string> = {},
): Record<string, string> {
  const where = `container ${container.name} of ${pod.name}`;
  const env: Record<string, string> = {};
  const source = (kind: 'ConfigMap' | 'Secret', name: string, optional: boolean | undefined) => {
    const obj = find(objects, kind, name);
    if (!obj && !optional) throw new UnresolvableEnv(`${where}: ${kind} ${name} is not rendered`);
    return obj && objectData(obj);
  };
  for (const from of container.envFrom ?? []) {
    const ref = from.configMapRef ?? from.secretRef;
    if (!ref || (from.configMapRef && from.secretRef))
      throw new UnresolvableEnv(`${where}: envFrom entry needs exactly one of configMapRef, secretRef`);
    const data = source(from.configMapRef ? 'ConfigMap' : 'Secret', ref.name, ref.optional);
    for (const [k, v] of Object.entries(data ?? {})) {
      const name = `${from.prefix ?? ''}${k}`;
      if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(name))
        throw new UnresolvableEnv(`${where}: envFrom key ${name} is not a variable name (the kubelet skips it)`);
      env[name] = v;
    }
  }
  const lookup = (n: string) => (n in env ? env[n] : serviceLinks[n]);
  for (const e of container.env ?? []) {
    const vf = e.valueFrom;
    if (vf !== undefined && e.value !== undefined && e.value !== '')
      throw new UnresolvableEnv(`${where}: env ${e.name} has both value and valueFrom (the API server refuses it)`);
    if (vf === undefined) {
      if (e.value !== undefined && typeof e.value !== 'string')
        throw new UnresolvableEnv(`${where}: env ${e.name} is ${typeof e.value}, not a string (quote it)`);
      env[e.name] = expandRefs((e.value as string | undefined) ?? '', lookup);
    } else if (vf.fieldRef) env[e.name] = fieldValue(vf.fieldRef.fieldPath, pod);
    else if (vf.configMapKeyRef || vf.secretKeyRef) {
      const ref = (vf.configMapKeyRef ?? vf.secretKeyRef) as KeyRef;
      const kind = vf.configMapKeyRef ? 'ConfigMap' : 'Secret';
      const data = source(kind, ref.name, ref.optional);
      if (data && ref.key in data) env[e.name] = data[ref.key];
      else if (data && !ref.optional)
        throw new UnresolvableEnv(`${where}: env ${e.name}: ${kind} ${ref.name} has no key ${ref.key}`);
    } else throw new UnresolvableEnv(`${where}: env ${e.name}: valueFrom ${JSON.stringify(vf)} is not supported`);
  }
  for (const [k, v] of Object.entries(serviceLinks)) if (!(k in env)) env[k] = v;
  return env;
}

/**
 * The service-link variables (`<NAME>_SERVICE_HOST`, `<NAME>_PORT_<n>_TCP_ADDR`, ...) the kubelet adds for each
 * `services` entry with a cluster IP (`clusterIp(name)`, made up locally), as in kubelet envvars.FromServices.
 */
export function serviceLinkEnv(services: K8sObject[], clusterIp: (name: string) => string): Record<string, string> {
  const env: Record<string, string> = {};
  for (const svc of services) {
    const spec = (svc.spec ?? {}) as { clusterIP?: string; ports?: Array<{ name?: string; port: number }> };
    if (spec.clusterIP === 'None' || !spec.ports?.length) continue;
    const ip = spec.clusterIP ?? clusterIp(svc.metadata.name);
    const base = svc.metadata.name.toUpperCase().replace(/-/g, '_');
    const [first] = spec.ports;
    env[`${base}_SERVICE_HOST`] = ip;
    env[`${base}_SERVICE_PORT`] = String(first.port);
    env[`${base}_PORT`] = `tcp://${ip}:${first.port}`;
    for (const p of spec.ports) {
      if (p.name) env[`${base}_SERVICE_PORT_${p.name.toUpperCase().replace(/-/g, '_')}`] = String(p.port);
      const pre = `${base}_PORT_${p.port}_TCP`;
      Object.assign(env, {
        [pre]: `tcp://${ip}:${p.port}`,
        [`${pre}_PROTO`]: 'tcp',
        [`${pre}_PORT`]: String(p.port),
        [`${pre}_ADDR`]: ip,
      });
    }
  }
  return env;
}
