import { loadConfig } from '../../src/config/index.js';
import { HealthController } from '../../src/modules/observability/index.js';
import {
  CASES,
  CHART,
  type DeploymentObject,
  type Meta,
  deployments,
  envOf,
  helm,
  knownSettings,
  podEnv,
  renderCases,
  SECRETS,
  subset,
  unknownSettings,
  validateObject,
} from './chart-render.js';

/**
 * Static checks of the Helm chart (deploy/helm/tickwheel) with the real helm (scripts/k8s-tools.mjs): lint, the
 * rendered objects against the Kubernetes schemas (kubernetes-models), and what the app needs of them: ROLES per
 * Deployment, only settings the app knows, every pod's environment accepted by loadConfig, probe paths the app
 * serves, grace periods from the shutdown settings. What the values choose is checked in chart-values.spec.ts.
 */
describe('Helm chart deploy/helm/tickwheel', () => {
  const known = knownSettings();
  const rendered = renderCases();

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
});
