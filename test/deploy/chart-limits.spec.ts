import { readFileSync } from 'node:fs';
import { getMetadataStorage } from 'class-validator';
import { EnvDto } from '../../src/config/env.dto.js';
import { CHART, helmTemplate, type K8sObject, parseManifests } from './rendered-pods.js';

/**
 * What the chart refuses or bounds (deploy/helm/tickwheel): object names within 63 characters, the NetworkPolicy
 * admitting a Prometheus of another namespace to every role, typed settings derived from EnvDto's validators,
 * refusals of values that would render a broken release, and each Deployment's rollout strategy.
 */
const SECRETS = {
  dbUrl: 'mysql://tw:pw@mariadb:3306/tickwheel',
  redisUrl: 'redis://redis:6379',
  secretKey: 'ab'.repeat(32),
};

/** The objects of `helm template` with the given values (secrets added). @throws with helm's stderr on refusal. */
function render(values: Record<string, unknown>, release = 'tw'): K8sObject[] {
  return parseManifests(helmTemplate({ release, namespace: 'jobs', values: { secrets: SECRETS, ...values } }));
}

interface Peer {
  namespaceSelector?: object;
  podSelector?: { matchLabels?: Record<string, string> };
}
type Policy = K8sObject & { spec: { ingress: { from?: Peer[] }[] } };
type Strategy = { type: string; rollingUpdate?: { maxSurge: unknown; maxUnavailable: unknown } };
type Deploy = K8sObject & { spec: { strategy?: Strategy } };

const LONG_EXTRA = 'a'.repeat(30);

describe('Helm chart limits and refusals', () => {
  it('should keep every object name within 63 characters and unique per kind with a 53-character release', () => {
    const release = `r${'x'.repeat(52)}`;
    const objects = render(
      {
        extraExecutors: [
          { name: LONG_EXTRA, args: ['node', 'x.js'], config: { EXECUTOR_CONCURRENCY: 2 } },
          { name: `${'a'.repeat(29)}b`, args: ['node', 'y.js'], autoscaling: { enabled: true, maxReplicas: 3 } },
        ],
        ingress: { enabled: true, hosts: ['t.example.com'] },
        networkPolicy: { enabled: true },
        metrics: { serviceMonitor: { enabled: true }, prometheusRule: { enabled: true } },
      },
      release,
    );
    expect(objects.length).toBeGreaterThan(15);
    const tooLong = objects.filter((o) => o.metadata.name.length > 63).map((o) => `${o.kind}/${o.metadata.name}`);
    expect(tooLong).toEqual([]);
    const keys = objects.map((o) => `${o.kind}/${o.metadata.name}`);
    expect(new Set(keys).size).toBe(keys.length);
    // Each Deployment still finds its own ConfigMap and each HPA its Deployment.
    const names = new Set(keys);
    for (const o of objects.filter((x) => x.kind === 'HorizontalPodAutoscaler'))
      expect(names.has(`Deployment/${(o.spec as { scaleTargetRef: { name: string } }).scaleTargetRef.name}`)).toBe(
        true,
      );
  });

  it('should admit the default metricsFrom (Prometheus of any namespace) to every role, the api pods too', () => {
    const policies = (values: Record<string, unknown>) =>
      render({ networkPolicy: { enabled: true, ...values } }).filter((o) => o.kind === 'NetworkPolicy') as Policy[];
    const peers = (p: Policy) => p.spec.ingress.flatMap((rule) => rule.from ?? []);
    for (const p of policies({})) {
      const prometheus = peers(p).filter(
        (x) => x.podSelector?.matchLabels?.['app.kubernetes.io/name'] === 'prometheus',
      );
      // The api policy has no `from` without apiFrom (any source); the workers' admits Prometheus across namespaces.
      if (p.metadata.name.endsWith('-workers')) expect(prometheus[0]?.namespaceSelector).toEqual({});
    }
    const ingress = { namespaceSelector: { matchLabels: { 'kubernetes.io/metadata.name': 'ingress-nginx' } } };
    const api = policies({ apiFrom: [ingress] }).find((p) => p.metadata.name.endsWith('-api'))!;
    expect(peers(api)).toEqual([ingress, expect.objectContaining({ namespaceSelector: {} })]);
    expect(() => render({ networkPolicy: { enabled: true, metricsFrom: [] } })).toThrow(/metricsFrom needs/);
  });

  it('should scrape METRICS_PORT when set: container port metrics on every pod, bound to all addresses, admitted', () => {
    type Obj = K8sObject & { spec: Record<string, unknown> };
    const objects = render({
      config: { METRICS_PORT: 9464 },
      networkPolicy: { enabled: true },
      metrics: { serviceMonitor: { enabled: true } },
    }) as Obj[];
    const metricsService = objects.find((o) => o.kind === 'Service' && o.metadata.name.endsWith('-metrics'))!;
    expect(metricsService.spec.ports).toEqual([{ name: 'http', port: 9464, targetPort: 'metrics', protocol: 'TCP' }]);
    const deployments = objects.filter((o) => o.kind === 'Deployment');
    expect(deployments.length).toBeGreaterThan(1);
    for (const d of deployments) {
      const c = (d.spec.template as { spec: { containers: Array<Record<string, unknown>> } }).spec.containers[0];
      expect(c.ports).toContainEqual({ name: 'metrics', containerPort: 9464, protocol: 'TCP' });
      expect(c.env).toContainEqual({ name: 'METRICS_HOST', value: '0.0.0.0' });
    }
    const policies = objects.filter((o) => o.kind === 'NetworkPolicy');
    for (const p of policies) expect(JSON.stringify(p.spec.ingress)).toContain('"port":"metrics"');
    const api = objects.find((o) => o.kind === 'Service' && o.metadata.name.endsWith('-api'))!;
    expect(JSON.stringify(api.spec.ports)).not.toContain('metrics'); // the api Service never reaches /metrics
  });

  it("should type every integer setting as EnvDto's validators bound it, and refuse bad ones", () => {
    const schema = JSON.parse(readFileSync(`${CHART}/values.schema.json`, 'utf8')) as {
      definitions: { config: { properties: Record<string, unknown> } };
    };
    const metas = getMetadataStorage().getTargetValidationMetadatas(EnvDto, '', true, false);
    const ints = [...new Set(metas.filter((m) => m.name === 'isInt').map((m) => m.propertyName))];
    expect(ints.length).toBeGreaterThan(30);
    for (const key of ints.filter((k) => k in schema.definitions.config.properties)) {
      const bound = (name: string) => metas.find((m) => m.propertyName === key && m.name === name)?.constraints[0];
      const then = Object.fromEntries(
        [
          ['minimum', bound('min')],
          ['maximum', bound('max')],
        ].filter(([, v]) => v !== undefined),
      );
      const ref = { $ref: '#/definitions/intSetting' };
      const expected = Object.keys(then).length ? { allOf: [ref, { if: { type: 'integer' }, then }] } : ref;
      expect([key, schema.definitions.config.properties[key]]).toEqual([key, expected]);
    }
    for (const config of [{ EXECUTOR_SHUTDOWN_GRACE_MS: -1 }, { PORT: 'abc' }, { CALLBACK_SHUTDOWN_GRACE_MS: '5s' }])
      expect(() => render({ config })).toThrow(new RegExp(`/config/${Object.keys(config)[0]}`));
    expect(() => render({ config: { PORT: '3001', EXECUTOR_APP_SHARE: 0.5 } })).not.toThrow();
  });

  it('should refuse duplicate extra executors, min above max replicas, a bad maxUnavailable, paths not /api or /console', () => {
    const extra = (name: string) => ({ name, args: ['node', 'x.js'] });
    expect(() => render({ extraExecutors: [extra('a'), extra('a')] })).toThrow(/"a" is given twice/);
    const scaling = { enabled: true, minReplicas: 5, maxReplicas: 3 };
    expect(() => render({ executor: { autoscaling: scaling } })).toThrow(/minReplicas 5 is above maxReplicas 3/);
    expect(() => render({ extraExecutors: [{ ...extra('b'), autoscaling: scaling }] })).toThrow(/minReplicas 5/);
    for (const maxUnavailable of [-1, 'one', '150%'])
      expect(() => render({ api: { pdb: { maxUnavailable } } })).toThrow(/\/api\/pdb\/maxUnavailable/);
    expect(() => render({ scheduler: { pdb: { maxUnavailable: '50%' } } })).not.toThrow();
    const ingress = (path: string) => ({
      enabled: true,
      hosts: ['t.example.com'],
      paths: [{ path, pathType: 'Prefix' }],
    });
    for (const path of ['/', '/metrics', '/docs', '/health/ready', '/apix', '/consolex'])
      expect(() => render({ ingress: ingress(path) })).toThrow(/\/ingress\/paths\/0\/path/);
    expect(() => render({ ingress: ingress('/api/v1') })).not.toThrow();
    expect(() => render({ ingress: ingress('/console') })).not.toThrow();
  });

  it("should render each role's rollout strategy, keeping capacity by default; extra executors inherit it", () => {
    const strategies = (values: Record<string, unknown>) =>
      new Map(
        (render(values).filter((o) => o.kind === 'Deployment') as Deploy[]).map((d) => [
          d.metadata.name.replace(/^tw-tickwheel-/, ''),
          d.spec.strategy,
        ]),
      );
    const keep = { type: 'RollingUpdate', rollingUpdate: { maxSurge: 1, maxUnavailable: 0 } };
    const wide = { type: 'RollingUpdate', rollingUpdate: { maxSurge: '25%', maxUnavailable: 2 } };
    const got = strategies({
      executor: { strategy: wide },
      extraExecutors: [
        { name: 'a', args: ['x'] },
        { name: 'b', args: ['x'], strategy: { type: 'Recreate' } },
      ],
    });
    expect(Object.fromEntries(got)).toEqual({
      api: keep,
      scheduler: keep,
      executor: wide,
      'executor-a': wide,
      'executor-b': { type: 'Recreate' },
    });
    expect(Object.fromEntries(strategies({}))).toEqual({ api: keep, scheduler: keep, executor: keep });
  });
});
