import {
  CHART,
  type DeploymentObject,
  deployments,
  helm,
  type K8sObject,
  render,
  SECRETS,
  subset,
  validateObject,
} from './chart-render.js';

type ContainerOf<D extends DeploymentObject> = D['spec']['template']['spec']['containers'][0];

const WORKER = [
  '--set',
  'appWorkers[0].name=billing',
  '--set',
  'appWorkers[0].image.repository=registry.example.com/billing-worker',
  '--set',
  'appWorkers[0].image.tag=1.4.2',
  '--set',
  'appWorkers[0].appSecret=billing-app',
  '--set',
  'appWorkers[0].replicas=2',
  '--set',
  'appWorkers[0].env[0].name=BILLING_MODE',
  '--set',
  'appWorkers[0].env[0].value=live',
];

/**
 * App workers (docs/workers.md) in the chart: a team's image with only the api's URL and its app's id and secret.
 * Rendered with real helm; the pod's whole environment is compared, so a product setting that leaks in fails it.
 */
describe('chart: appWorkers', () => {
  const objects = render([...SECRETS, ...WORKER]);
  const worker = deployments(objects).find((d) => d.metadata.name === 'tw-tickwheel-worker-billing') as
    DeploymentObject | undefined;
  const container = () =>
    (worker as DeploymentObject).spec.template.spec.containers[0] as ContainerOf<DeploymentObject> & {
      image: string;
      envFrom?: unknown;
    };

  it('should render one valid Deployment of the image, replicas as given', () => {
    expect(worker).toBeDefined();
    validateObject(worker as K8sObject);
    expect(container().image).toBe('registry.example.com/billing-worker:1.4.2');
    expect(worker?.spec.replicas).toBe(2);
  });

  it("should give the worker pod TICKWHEEL_URL, its app's id and secret, its own env, and nothing of the product's", () => {
    const c = container();
    expect(c.envFrom).toBeUndefined();
    expect(c.env).toEqual([
      { name: 'TICKWHEEL_URL', value: 'http://tw-tickwheel-api:80' },
      { name: 'TICKWHEEL_APP_ID', valueFrom: { secretKeyRef: { name: 'billing-app', key: 'appId' } } },
      { name: 'TICKWHEEL_SECRET', valueFrom: { secretKeyRef: { name: 'billing-app', key: 'secret' } } },
      { name: 'BILLING_MODE', value: 'live' },
    ]);
    const names = c.env.map((e) => e.name);
    for (const product of ['DB_URL', 'REDIS_URL', 'TICKWHEEL_SECRET_KEY', 'ROLES'])
      expect(names).not.toContain(product);
  });

  it("should point TICKWHEEL_URL at the release's api Service", () => {
    const api = objects.find((o) => o.kind === 'Service' && o.metadata.name === 'tw-tickwheel-api') as K8sObject & {
      spec: { ports: Array<{ port: number }> };
    };
    expect(`http://${api.metadata.name}:${api.spec.ports[0].port}`).toBe(
      container().env.find((e) => e.name === 'TICKWHEEL_URL')?.value,
    );
  });

  it("should select only its own pods, and no other Deployment's selector its pods", () => {
    const all = deployments(objects);
    const own = worker as DeploymentObject;
    for (const d of all) {
      const takes = subset(d.spec.selector.matchLabels, own.spec.template.metadata.labels);
      expect([d.metadata.name, takes]).toEqual([d.metadata.name, d === own]);
    }
  });

  it('should render no worker by default', () => {
    expect(render(SECRETS).filter((o) => o.metadata.name.includes('-worker-'))).toEqual([]);
  });

  it('should refuse an entry without its app Secret, and a product setting in its env', () => {
    const noSecret = WORKER.slice(0, 6); // name, image.repository, image.tag
    expect(noSecret.join(' ')).not.toMatch(/appSecret/);
    expect(helm(['template', 'tw', CHART, ...SECRETS, ...noSecret]).stderr).toMatch(/appSecret/);
    const leak = [...WORKER, '--set', 'appWorkers[0].env[1].name=DB_URL', '--set', 'appWorkers[0].env[1].value=x'];
    expect(helm(['template', 'tw', CHART, ...SECRETS, ...leak]).status).not.toBe(0);
  });
});
