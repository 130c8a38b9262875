import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { NestExpressApplication } from '@nestjs/platform-express';
import { DataSource } from 'typeorm';
import { createApp } from '../../src/bootstrap.js';
import { TickwheelClient } from '../../src/client/tickwheel-client.js';
import { AppConfig, loadConfig } from '../../src/config/index.js';
import { NodeRegistryService } from '../../src/modules/dispatch/index.js';
import { DEFAULT_SCOPES, type Scope } from '../../src/modules/metadata/index.js';
import { ApiClientService, type ClientLimits } from '../../src/modules/openapi/index.js';
import { AppModuleOptions } from '../../src/app.module.js';

import { waitFor } from './async.js';

export { waitFor };

export const MYSQL_URL = process.env.TEST_DB_URL ?? 'mysql://root@127.0.0.1:3306/test';
export const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
export const TEST_SECRET_KEY = 'a'.repeat(64);

/** A running node of the product, booted exactly as main.ts does, listening on a free port. */
export interface TestNode {
  app: NestExpressApplication;
  config: AppConfig;
  url: string;
  ds: DataSource;
  close(): Promise<void>;
}

/** A unique namespace, so tests sharing the MariaDB tables and Redis never see each other's rows or keys. */
export function uniqueNamespace(prefix = 't'): string {
  return `${prefix}-${randomUUID().slice(0, 8)}`;
}

/**
 * The egress allow-list of test nodes: anything the product allows by default, plus 127.0.0.1 (every port),
 * where the tests' HTTP receivers listen (the default policy refuses loopback).
 */
export const TEST_EGRESS_ALLOW = '*,127.0.0.1';

/** Settings of a cluster node for `namespace` (plus overrides). */
export function clusterEnv(namespace: string, extra: Record<string, string> = {}): Record<string, string> {
  return {
    DB_URL: MYSQL_URL,
    REDIS_URL,
    TICKWHEEL_NAMESPACE: namespace,
    TICKWHEEL_SECRET_KEY: TEST_SECRET_KEY,
    LOG_LEVEL: 'warn',
    HEARTBEAT_INTERVAL_MS: '500',
    NODE_OFFLINE_AFTER_MS: '3000',
    RECONCILE_INTERVAL_MS: '1000',
    LEADER_LEASE_MS: '3000',
    EGRESS_ALLOW: TEST_EGRESS_ALLOW,
    ...extra,
  };
}

/** Settings of a standalone node in a fresh temporary data dir. */
export function standaloneEnv(extra: Record<string, string> = {}): Record<string, string> {
  return {
    DATA_DIR: mkdtempSync(join(tmpdir(), 'tw-test-')),
    LOG_LEVEL: 'warn',
    HEARTBEAT_INTERVAL_MS: '500',
    RECONCILE_INTERVAL_MS: '1000',
    EGRESS_ALLOW: TEST_EGRESS_ALLOW,
    ...extra,
  };
}

/** Boots a node from settings and listens on 127.0.0.1 with a free port. */
export async function startNode(env: Record<string, string>, opts: AppModuleOptions = {}): Promise<TestNode> {
  const config = loadConfig(env);
  const app = await createApp(config, opts);
  await app.listen(0, '127.0.0.1');
  const { port } = app.getHttpServer().address() as AddressInfo;
  const close = async () => {
    await app.close();
    if (config.shape === 'standalone' && config.dataDir.startsWith(tmpdir()))
      rmSync(config.dataDir, { recursive: true, force: true });
  };
  return { app, config, url: `http://127.0.0.1:${port}`, ds: app.get(DataSource), close };
}

/** For tests that submit thousands of requests as fast as they can: no rate limit, whatever the default (README "Rate limits"). */
export const UNLIMITED: ClientLimits = { rateLimit: 0 };

/** A client signing as one app, with the app id and the secret it signs with (for requests built by hand). */
export type AppClient = TickwheelClient & { appId: string; secret: string };

/**
 * Creates an API client on `node` with `scopes` (default: what a client gets when none are chosen, README
 * "Tenancy and scopes") and its own `limits` (default: the settings'), and returns a signed client for it.
 */
export async function signedClient(
  node: TestNode,
  appId = `app-${randomUUID().slice(0, 8)}`,
  scopes: readonly Scope[] = DEFAULT_SCOPES,
  limits?: ClientLimits,
): Promise<AppClient> {
  const { secret } = await node.app.get(ApiClientService).create(appId, { scopes, limits });
  return Object.assign(new TickwheelClient({ baseUrl: node.url, appId, secret }), { appId, secret });
}

/** Instance counts by status in `namespace`. */
export async function statusCounts(ds: DataSource, namespace: string): Promise<Record<string, number>> {
  const rows: Array<{ status: string; c: string | number }> = await ds.query(
    'SELECT status, COUNT(*) AS c FROM job_instance WHERE namespace = ? GROUP BY status',
    [namespace],
  );
  return Object.fromEntries(rows.map((r) => [r.status, Number(r.c)]));
}

/** The instances of job `jobId` with their status, in fire order (ties by id: the shards of one fire). */
export async function jobInstanceStatuses(
  ds: DataSource,
  jobId: string,
): Promise<Array<{ id: string; status: string }>> {
  return ds.query('SELECT id, status FROM job_instance WHERE job_id = ? ORDER BY fire_time, id', [jobId]);
}

/** The live executors of `node`'s namespace by name (a node id up to its first '-': NODE_NAME), sorted. */
export async function liveExecutors(node: TestNode): Promise<string[]> {
  return (await node.app.get(NodeRegistryService).liveNodes()).map((n) => n.nodeId.split('-')[0]).sort();
}

/** Waits until `n` executors of `node`'s namespace beat (30 s at most): work routed before then waits. */
export async function executorsBeat(node: TestNode, n: number): Promise<void> {
  const what = n === 1 ? 'the executor to beat' : `${n} executors to beat`;
  await waitFor(what, async () => (await node.app.get(NodeRegistryService).liveNodes()).length === n, 30_000);
}
