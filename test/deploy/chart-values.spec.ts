import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { load } from 'js-yaml';
import { loadConfig } from '../../src/config/index.js';
import {
  CASES,
  CHART,
  CHART_MANAGED,
  deployments,
  envOf,
  helm,
  type K8sObject,
  knownSettings,
  podEnv,
  render,
  renderCases,
  ROOT,
  SECRETS,
  unknownSettings,
} from './chart-render.js';

/**
 * What the chart's values choose (deploy/helm/tickwheel): replicas and the Secret, extra executors, command and
 * args, the alert rules, a values schema that knows exactly the app's settings and refuses typos, the NOTES and
 * the required secrets.
 */
describe('Helm chart deploy/helm/tickwheel', () => {
  const known = knownSettings();
  const rendered = renderCases();

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
    const noRedis = helm(['template', 'tw', CHART, ...SECRETS.slice(0, 2), ...SECRETS.slice(4)]);
    expect(noRedis.stderr).toMatch(/secrets\.redisUrl is required/);
  });

  it('should reach a Sentinel group from config without secrets.redisUrl, its passwords from the Secret', () => {
    const sentinel = ['REDIS_SENTINELS=s1:26379\\,s2:26379', 'REDIS_SENTINEL_NAME=tw'].map((s) => `config.${s}`);
    const args = [...SECRETS.slice(0, 2), ...SECRETS.slice(4)];
    const objects = render([...args, ...[...sentinel, 'secrets.redisPassword=pw'].flatMap((s) => ['--set', s])]);
    const secret = objects.find((o) => o.kind === 'Secret')!.data as Record<string, string>;
    expect(Object.keys(secret).sort()).toEqual(['DB_URL', 'REDIS_PASSWORD', 'TICKWHEEL_SECRET_KEY']);
    const data = Object.fromEntries(Object.entries(secret).map(([k, v]) => [k, Buffer.from(v, 'base64').toString()]));
    for (const d of deployments(objects)) {
      expect(envOf(d, 'REDIS_URL')).toBeUndefined();
      const config = loadConfig(podEnv(d, objects, data), 1000);
      expect(config.redis).toMatchObject({ kind: 'sentinel', name: 'tw', password: 'pw' });
    }
  });
});
