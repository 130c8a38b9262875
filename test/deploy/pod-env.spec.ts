import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  containerArgv,
  expandRefs,
  type K8sObject,
  type PodIdentity,
  resolveEnv,
  serviceLinkEnv,
  UnresolvableEnv,
} from './pod-env.js';
import { imageEnv, imageProcess } from './image-env.js';
import { localArgv, localEnv, parseManifests, renderedPods, TINI } from './rendered-pods.js';

/** The harness of the chart boot test resolves env as the kubelet does; these pin the rules it follows. */
const POD: PodIdentity = {
  name: 'tw-api-0',
  namespace: 'prod',
  uid: 'u-1',
  labels: { tier: 'web' },
  annotations: {},
  nodeName: 'node-a',
  serviceAccountName: 'default',
  podIP: '127.0.0.1',
  hostIP: '127.0.0.1',
};
const b64 = (s: string) => Buffer.from(s).toString('base64');
const cm = (name: string, data: Record<string, string>): K8sObject => ({
  apiVersion: 'v1',
  kind: 'ConfigMap',
  metadata: { name },
  data,
});
const secret = (name: string, data: Record<string, string>, stringData?: Record<string, string>): K8sObject => ({
  apiVersion: 'v1',
  kind: 'Secret',
  metadata: { name },
  data: Object.fromEntries(Object.entries(data).map(([k, v]) => [k, b64(v)])),
  stringData,
});

describe('resolveEnv (the kubelet environment of a container)', () => {
  const objects = [
    cm('a', { X: 'from-a', Y: 'from-a', LEVEL: 'info' }),
    cm('b', { Y: 'from-b' }),
    secret('s', { KEY: 'k1', URL: 'mysql://db' }, { KEY: 'k2' }),
  ];

  it('should let later envFrom win, env win over envFrom, a later env win, and links fill only the gaps', () => {
    const env = resolveEnv(
      {
        name: 'c',
        envFrom: [
          { configMapRef: { name: 'a' } },
          { configMapRef: { name: 'b' } },
          { prefix: 'S_', secretRef: { name: 's' } },
        ],
        env: [
          { name: 'LEVEL', value: 'debug' },
          { name: 'Z', value: '1' },
          { name: 'Z', value: '2' },
          { name: 'DB', valueFrom: { secretKeyRef: { name: 's', key: 'URL' } } },
        ],
      },
      POD,
      objects,
      { LEVEL: 'link', API_SERVICE_HOST: '10.96.0.10' },
    );
    expect(env).toEqual({
      X: 'from-a',
      Y: 'from-b',
      LEVEL: 'debug',
      S_KEY: 'k2', // stringData over data, as the API server merges them
      S_URL: 'mysql://db',
      Z: '2',
      DB: 'mysql://db',
      API_SERVICE_HOST: '10.96.0.10',
    });
  });

  it('should give the downward API fields and expand $(VAR) against what is defined before', () => {
    const env = resolveEnv(
      {
        name: 'c',
        env: [
          { name: 'POD', valueFrom: { fieldRef: { fieldPath: 'metadata.name' } } },
          { name: 'WHERE', value: '$(POD).$(NS)/$(LATER) $$(POD) $(TIER)' },
          { name: 'NS', valueFrom: { fieldRef: { fieldPath: 'metadata.namespace' } } },
          { name: 'TIER', valueFrom: { fieldRef: { fieldPath: "metadata.labels['tier']" } } },
          { name: 'IP', valueFrom: { fieldRef: { fieldPath: 'status.podIP' } } },
          { name: 'LATER', value: 'x' },
        ],
      },
      POD,
      [],
    );
    expect(env).toEqual({
      POD: 'tw-api-0',
      WHERE: 'tw-api-0.$(NS)/$(LATER) $(POD) $(TIER)',
      NS: 'prod',
      TIER: 'web',
      IP: '127.0.0.1',
      LATER: 'x',
    });
    expect(expandRefs('$(A)$$$(A)$x$', (n) => (n === 'A' ? 'a' : undefined))).toBe('a$a$x$');
  });

  it('should skip optional refs to what is missing and refuse the rest loudly', () => {
    const optional = resolveEnv(
      {
        name: 'c',
        envFrom: [{ configMapRef: { name: 'nope', optional: true } }],
        env: [{ name: 'K', valueFrom: { secretKeyRef: { name: 's', key: 'NOPE', optional: true } } }],
      },
      POD,
      objects,
    );
    expect(optional).toEqual({});
    const refuse = (c: Parameters<typeof resolveEnv>[0]) => () => resolveEnv(c, POD, objects);
    expect(refuse({ name: 'c', envFrom: [{ secretRef: { name: 'nope' } }] })).toThrow(/Secret nope is not rendered/);
    expect(
      refuse({ name: 'c', env: [{ name: 'K', valueFrom: { secretKeyRef: { name: 's', key: 'NOPE' } } }] }),
    ).toThrow(/has no key NOPE/);
    expect(
      refuse({ name: 'c', env: [{ name: 'M', valueFrom: { resourceFieldRef: { resource: 'limits.cpu' } } }] }),
    ).toThrow(UnresolvableEnv);
    expect(
      refuse({ name: 'c', env: [{ name: 'F', valueFrom: { fieldRef: { fieldPath: 'spec.hostname' } } }] }),
    ).toThrow(/spec.hostname/);
    expect(() =>
      resolveEnv({ name: 'c', envFrom: [{ configMapRef: { name: 'd' } }] }, POD, [cm('d', { 'a-b': '1' })]),
    ).toThrow(/a-b is not a variable name/);
  });

  it('should name the service links of each Service port', () => {
    const svc: K8sObject = {
      apiVersion: 'v1',
      kind: 'Service',
      metadata: { name: 'tw-tickwheel-api' },
      spec: { ports: [{ name: 'http', port: 80 }] },
    };
    expect(serviceLinkEnv([svc], () => '10.96.0.10')).toEqual({
      TW_TICKWHEEL_API_SERVICE_HOST: '10.96.0.10',
      TW_TICKWHEEL_API_SERVICE_PORT: '80',
      TW_TICKWHEEL_API_SERVICE_PORT_HTTP: '80',
      TW_TICKWHEEL_API_PORT: 'tcp://10.96.0.10:80',
      TW_TICKWHEEL_API_PORT_80_TCP: 'tcp://10.96.0.10:80',
      TW_TICKWHEEL_API_PORT_80_TCP_PROTO: 'tcp',
      TW_TICKWHEEL_API_PORT_80_TCP_PORT: '80',
      TW_TICKWHEEL_API_PORT_80_TCP_ADDR: '10.96.0.10',
    });
  });
});

describe('containerArgv, imageProcess and localArgv (the process a container starts)', () => {
  const image = { entrypoint: ['/init', '--', '$(A)'], cmd: ['serve', '$(A)'] };
  const env = { A: 'a' };

  it('should combine command and args with the image ENTRYPOINT and CMD as Kubernetes does', () => {
    const argv = (command?: string[], args?: string[]) => containerArgv({ name: 'c', command, args }, image, env);
    // Neither: ENTRYPOINT + CMD, not expanded (the kubelet expands only the container's own fields).
    expect(argv()).toEqual(['/init', '--', '$(A)', 'serve', '$(A)']);
    expect(argv([], [])).toEqual(argv());
    expect(argv(undefined, ['run', '$(A)'])).toEqual(['/init', '--', '$(A)', 'run', 'a']); // args: CMD replaced
    expect(argv(['sh', '$(A)'])).toEqual(['sh', 'a']); // command: ENTRYPOINT and CMD both ignored
    expect(argv(['sh'], ['-c', 'x'])).toEqual(['sh', '-c', 'x']);
    expect(() => containerArgv({ name: 'c' }, { entrypoint: [], cmd: [] }, env)).toThrow(/nothing to run/);
  });

  it("should read the runtime stage's ENTRYPOINT and CMD of a Dockerfile, and refuse what it cannot know", () => {
    const dir = mkdtempSync(join(tmpdir(), 'tw-image-process-'));
    const file = join(dir, 'Dockerfile');
    const read = (text: string) => {
      writeFileSync(file, text);
      return () => imageProcess(file);
    };
    try {
      const base = 'FROM a AS build\nENTRYPOINT ["/b"]\nCMD ["b"]\nFROM b\n';
      expect(read(`${base}ENTRYPOINT ["/i", "--"]\nCMD ["x"]\nCMD ["node", \\\n  "m.js"]\n`)()).toEqual({
        entrypoint: ['/i', '--'],
        cmd: ['node', 'm.js'],
      });
      expect(read(`${base}ENTRYPOINT ["/i"]\n`)()).toEqual({ entrypoint: ['/i'], cmd: [] });
      expect(read(`${base}CMD ["x"]\n`)).toThrow(/sets no ENTRYPOINT/);
      expect(read(`${base}ENTRYPOINT /i --\n`)).toThrow(/not in exec form/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("should run what follows tini's -- only when tini is not on this machine", () => {
    const argv = [TINI, '--', 'node', 'dist/src/main.js'];
    expect(localArgv(argv, true)).toEqual({ argv, skippedTini: false });
    expect(localArgv(argv, false)).toEqual({ argv: ['node', 'dist/src/main.js'], skippedTini: true });
    expect(localArgv(['node', 'x.js'], false)).toEqual({ argv: ['node', 'x.js'], skippedTini: false });
    expect(() => localArgv([TINI, 'node'], false)).toThrow(/no program after --/);
    expect(() => localArgv([TINI, '--'], false)).toThrow(/no program after --/);
  });
});

describe('renderedPods and localEnv (a rendered Deployment run on this machine)', () => {
  const manifest = (port: string, value = '"on"', command = '[node, dist/src/main.js]') => `
apiVersion: v1
kind: Secret
metadata: {name: s}
stringData: {DB_URL: "mysql://root@mariadb.db.svc.cluster.local:3306/app"}
---
apiVersion: apps/v1
kind: Deployment
metadata: {name: tw-api}
spec:
  replicas: 2
  template:
    spec:
      enableServiceLinks: false
      containers:
        - name: app
          command: ${command}
          args: ["--name=$(NODE_NAME)"]
          ports: [{name: http, containerPort: 3000}]
          readinessProbe: {httpGet: {path: /health/ready, port: http}}
          env:
            - {name: PORT, value: "${port}"}
            - {name: FLAG, value: ${value}}
            - name: NODE_NAME
              valueFrom: {fieldRef: {fieldPath: metadata.name}}
            - name: DB_URL
              valueFrom: {secretKeyRef: {name: s, key: DB_URL}}
`;

  it('should make one pod per replica with its name in env and args, and map the in-cluster URL and the port', () => {
    const pods = renderedPods(parseManifests(manifest('3000')), 'prod');
    expect(pods.map((p) => [p.name, p.argv, p.readiness])).toEqual([
      ['tw-api-0', ['node', 'dist/src/main.js', '--name=tw-api-0'], { path: '/health/ready', port: 3000 }],
      ['tw-api-1', ['node', 'dist/src/main.js', '--name=tw-api-1'], { path: '/health/ready', port: 3000 }],
    ]);
    expect(Object.keys(pods[0].env).filter((k) => k.startsWith('KUBERNETES_'))).toContain('KUBERNETES_SERVICE_HOST');
    const urls = { 'mysql://root@mariadb.db.svc.cluster.local:3306/app': 'mysql://127.0.0.1/t' };
    const image = { NODE_ENV: 'production', DATA_DIR: '/app/data', FLAG: 'image' };
    const env = localEnv(pods[0], urls, 4567, image);
    expect([env.DB_URL, env.PORT, env.FLAG, env.NODE_ENV, env.HOSTNAME]).toEqual([
      'mysql://127.0.0.1/t',
      '4567',
      'on', // the container's env over the image's
      'production',
      'tw-api-0',
    ]);
    expect(env.DATA_DIR).toBe(join(process.cwd(), 'data')); // the image's /app is the repo root
    expect(() => localEnv(pods[0], {}, 4567, {})).toThrow(/in-cluster host that is not mapped/);
    // Without a command the image's ENTRYPOINT (docker/Dockerfile's tini) runs the args.
    const noCommand = renderedPods(parseManifests(manifest('3000', '"on"', '[]')), 'prod');
    expect(noCommand[1].argv).toEqual([...imageProcess().entrypoint, '--name=tw-api-1']);
    expect(noCommand[1].argv[0]).toBe(TINI);
  });

  it("should read the runtime stage's ENV of a Dockerfile, in both forms and with continuations", () => {
    const dir = mkdtempSync(join(tmpdir(), 'tw-image-env-'));
    const file = join(dir, 'Dockerfile');
    writeFileSync(
      file,
      'FROM a AS build\nENV X=build\nFROM b\nENV NODE_ENV=production \\\n    NAME="a b"\nENV OLD some value\n',
    );
    try {
      expect(imageEnv(file)).toEqual({ NODE_ENV: 'production', NAME: 'a b', OLD: 'some value' });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('should refuse a PORT that is not the http container port and an unquoted YAML 1.1 boolean', () => {
    const [pod] = renderedPods(parseManifests(manifest('3001')), 'prod');
    expect(() => localEnv(pod, {}, 4567, {})).toThrow(/PORT is '3001', container port http is 3000/);
    expect(() => renderedPods(parseManifests(manifest('3000', 'on')), 'prod')).toThrow(/FLAG is boolean/);
  });
});
