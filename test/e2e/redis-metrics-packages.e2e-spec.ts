import { RedisService } from '@liaoliaots/nestjs-redis';
import { ModulesContainer } from '@nestjs/core';
import { PrometheusController, PrometheusModule } from '@willsoto/nestjs-prometheus';
import type { Redis } from 'ioredis';
import { Gauge, register as globalRegistry } from 'prom-client';
import { MAIN_REDIS } from '../../src/infra/redis/index.js';
import {
  COORDINATION,
  InProcessCoordinationAdapter,
  REDIS_CLIENT,
  RedisCoordinationAdapter,
} from '../../src/modules/coordination/index.js';
import { MetricsController, MetricsService, REDIS_TOKEN } from '../../src/modules/observability/index.js';
import { clusterEnv, standaloneEnv, startNode, type TestNode, uniqueNamespace, waitFor } from '../utils/test-node.js';

/** The design card's packages: nestjs-redis hands out the Redis connections, nestjs-prometheus serves /metrics. */
describe('Redis connections (nestjs-redis) and /metrics (nestjs-prometheus)', () => {
  let cluster: TestNode;
  let standalone: TestNode;

  beforeAll(async () => {
    cluster = await startNode(clusterEnv(uniqueNamespace('e2e-packages'), { ROLES: 'executor' }));
    standalone = await startNode(standaloneEnv());
  });

  afterAll(async () => {
    await cluster?.close();
    await standalone?.close();
  });

  /** The controllers that the PrometheusModule of `node` mounts. */
  const prometheusControllers = (node: TestNode): unknown[] =>
    [...node.app.get(ModulesContainer).values()]
      .filter((m) => m.metatype === PrometheusModule)
      .flatMap((m) => [...m.controllers.keys()]);

  it("should give the coordination adapter, its scripts and the health check RedisService's client", async () => {
    const client = cluster.app.get(RedisService, { strict: false }).getOrThrow(MAIN_REDIS);
    expect(cluster.app.get<Redis>(REDIS_CLIENT)).toBe(client);
    expect(cluster.app.get(REDIS_TOKEN)).toBe(client);
    const adapter = cluster.app.get(COORDINATION);
    expect(adapter).toBeInstanceOf(RedisCoordinationAdapter);
    expect(Reflect.get(adapter, 'redis')).toBe(client);
    const scripts = Object.keys(client).filter((key) => /^[a-z][A-Za-z]*:[0-9a-f]{8}$/.test(key));
    expect(scripts).toEqual(expect.arrayContaining([expect.stringMatching(/^acquireLock:/)]));
    expect(client.options).toMatchObject({ connectionName: 'tickwheel:main', maxRetriesPerRequest: 3 });
    expect([1, 5, 100].map((times) => client.options.retryStrategy?.(times))).toEqual([200, 1000, 2000]);
    expect(await client.ping()).toBe('PONG');
  });

  it('should open no Redis connection standalone', () => {
    const connections = standalone.app.get(RedisService, { strict: false });
    expect(connections.getOrNil(MAIN_REDIS)).toBeNull();
    expect(connections.getOrNil()).toBeNull();
    expect(standalone.app.get(REDIS_CLIENT)).toBeNull();
    expect(standalone.app.get(COORDINATION)).toBeInstanceOf(InProcessCoordinationAdapter);
  });

  it("should answer /metrics with nestjs-prometheus's module and controller, from each app's own registry", async () => {
    for (const node of [cluster, standalone]) {
      expect(prometheusControllers(node)).toEqual([MetricsController]);
      expect(node.app.get(MetricsController, { strict: false })).toBeInstanceOf(PrometheusController);
    }
    const probe = new Gauge({ name: 'tickwheel_test_probe', help: 'cluster node only', registers: [] });
    cluster.app.get(MetricsService).registry.registerMetric(probe);
    probe.set(7);
    const answers = await Promise.all([cluster, standalone].map((node) => fetch(`${node.url}/metrics`)));
    for (const res of answers) {
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('text/plain; version=0.0.4; charset=utf-8');
    }
    const [clusterText, standaloneText] = await Promise.all(answers.map((res) => res.text()));
    expect(clusterText).toMatch(/^tickwheel_test_probe 7$/m);
    expect(standaloneText).not.toMatch(/tickwheel_test_probe/);
    for (const text of [clusterText, standaloneText]) {
      expect(text).toMatch(/^# TYPE tickwheel_instances_finished_total counter$/m);
      expect(text).toMatch(/^tickwheel_process_cpu_seconds_total /m);
    }
    expect(globalRegistry.getMetricsAsArray()).toEqual([]);
  });

  it('should still answer /api with the no-api problem on a node without the api role', async () => {
    const res = await fetch(`${cluster.url}/api/nodes`);
    expect(res.status).toBe(404);
    expect(await res.text()).toMatch(/does not serve the API/);
  });

  it('should close the shared client when the app closes', async () => {
    const node = await startNode(clusterEnv(uniqueNamespace('e2e-packages-close'), { ROLES: 'api' }));
    const client = node.app.get<Redis>(REDIS_CLIENT);
    expect(client.status).not.toBe('end');
    await node.close(); // QUIT answered; the socket closes right after
    await waitFor('the shared client to end', async () => client.status === 'end', 5_000, 20);
  });
});
