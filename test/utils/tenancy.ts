import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import { AddressInfo } from 'node:net';
import type { TickwheelResponse } from '../../src/client/tickwheel-client.js';
import { DEFAULT_SCOPES, Scope } from '../../src/modules/metadata/index.js';
import { type AppClient, clusterEnv, signedClient, standaloneEnv, TestNode, uniqueNamespace } from './test-node.js';

/** The two shapes, each as a fresh node's settings (cluster: all roles in one process, its own namespace). */
export const SHAPES: Array<[string, (extra?: Record<string, string>) => Record<string, string>]> = [
  ['standalone', (extra = {}) => standaloneEnv({ LOG_LEVEL: 'error', ...extra })],
  ['cluster', (extra = {}) => clusterEnv(uniqueNamespace('e2e-ten'), { LOG_LEVEL: 'error', ...extra })],
];

/** Default scopes plus `shell`. */
export const WITH_SHELL: readonly Scope[] = [...DEFAULT_SCOPES, Scope.SHELL];

/** A unique app id with `prefix`. */
export function appIdOf(prefix: string): string {
  return `${prefix}-${randomUUID().slice(0, 8)}`;
}

/** A client of a new app (its id starts with `prefix`) on `node` with `scopes`. */
export function appClient(
  node: TestNode,
  prefix: string,
  scopes: readonly Scope[] = DEFAULT_SCOPES,
): Promise<AppClient> {
  return signedClient(node, appIdOf(prefix), scopes);
}

/**
 * Asserts an RFC 9457 problem answer with `status` (and `field` / `scope` when given); returns its body.
 * A 403 names the scope it needs, in `scope` and in the detail.
 */
export function expectProblem(
  res: TickwheelResponse,
  status: number,
  want: { field?: string; scope?: string } = {},
): Record<string, unknown> {
  expect({ status: res.status, body: res.body }).toMatchObject({ status });
  expect(res.headers.get('content-type')).toMatch(/^application\/problem\+json/);
  const b = res.body as Record<string, unknown>;
  expect(b.status).toBe(status);
  expect(typeof b.detail).toBe('string');
  if (want.field !== undefined) expect(b.field).toBe(want.field);
  if (want.scope !== undefined) {
    expect(b).toMatchObject({ code: 'FORBIDDEN', scope: want.scope });
    expect(b.detail).toMatch(new RegExp(`^this request needs the scope ${want.scope}\\b`));
  }
  return b;
}

/** An HTTP endpoint that takes each request and never answers until closed: an `http` instance calling it stays RUNNING. */
export async function silentReceiver(): Promise<{ url: string; close(): void }> {
  const server = createServer((req) => req.resume());
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => {
      server.closeAllConnections();
      server.close();
    },
  };
}
