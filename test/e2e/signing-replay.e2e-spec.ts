import { Logger } from '@nestjs/common';
import { jest } from '@jest/globals';
import { randomBytes } from 'node:crypto';
import { SIGNATURE_HEADERS as H } from '../../src/common/signing.js';
import { ApiClientService } from '../../src/modules/openapi/index.js';
import { clusterEnv, standaloneEnv, startNode, TestNode, uniqueNamespace } from '../utils/test-node.js';
import { neverFiringJob } from '../utils/jobs.js';
import { signatureHeaders, v1SignatureHeaders } from '../utils/signing.js';

/** A request as an eavesdropper captured it: method, target, headers and body bytes. */
interface Captured {
  method: string;
  path: string;
  headers: Record<string, string>;
  body: string;
}

/** `atk-` and six random lower-case letters: an id with letters in every position that matters. */
function attackerAppId(): string {
  return `atk-${Array.from(randomBytes(6), (b) => String.fromCharCode(97 + (b % 26))).join('')}`;
}

/**
 * Other spellings of `id`, 8 of them: each would find the client through a case- or accent-insensitive
 * collation, and `id ` / ` id` arrive as `id` itself (the HTTP parser strips the spaces around a value).
 */
function spellingsOf(id: string): string[] {
  const rest = id.slice(1);
  return [
    id.toUpperCase(),
    id[0].toUpperCase() + rest,
    `à${rest}`,
    `${id} `,
    ` ${id}`,
    id.slice(0, -1) + id.slice(-1).toUpperCase(),
    `á${rest}`,
    `À${rest}`,
  ];
}

async function send(node: TestNode, c: Captured, appId?: string): Promise<number> {
  const headers = {
    ...c.headers,
    ...(appId === undefined ? {} : { [H.appId]: appId }),
    ...(c.body ? { 'content-type': 'application/json' } : {}),
  };
  const res = await fetch(`${node.url}${c.path}`, { method: c.method, headers, body: c.body || undefined });
  await res.arrayBuffer();
  return res.status;
}

/** Signs `method path body` as `appId` the way the bundled client does (v2). */
function capture(appId: string, secret: string, method: string, path: string, body: string): Captured {
  return { method, path, body, headers: signatureHeaders({ appId, secret }, method, path, body) };
}

/**
 * One captured request replayed under other spellings of its app id (ATK-A, Atk-a, àtk-a, …): MariaDB's default
 * collation finds the same client under most of them, each with a nonce of its own. The app id is signed (v2) and
 * compared exactly, in the lookup and in the nonce key (docs/tenancy.md "Apps, namespaces and ownership"): the
 * capture runs once, every replay is a 401.
 */
function describeReplay(shape: string, start: () => Promise<TestNode>): void {
  describe(`replaying a captured request under other spellings of its app id (${shape})`, () => {
    let node: TestNode;
    const appId = attackerAppId();
    let secret: string;

    beforeAll(async () => {
      node = await start();
      const clients = node.app.get(ApiClientService);
      ({ secret } = await clients.create(appId));
      await clients.create(appId.toUpperCase()); // another app whose id differs only in case: it must not take the capture either
      const job = capture(
        appId,
        secret,
        'POST',
        '/api/jobs',
        JSON.stringify({ ...neverFiringJob('replayed'), enabled: false }),
      );
      expect(await send(node, job)).toBe(201);
    }, 60_000);
    afterAll(async () => node?.close());

    async function replayAll(c: Captured, okStatus: number): Promise<void> {
      expect(await send(node, c)).toBe(okStatus);
      const statuses = [];
      for (const spelling of [appId, ...spellingsOf(appId)]) statuses.push([spelling, await send(node, c, spelling)]);
      expect(statuses).toEqual([appId, ...spellingsOf(appId)].map((s) => [s, 401]));
    }

    it('should create one task from a captured submit, whatever spelling of the app id it is replayed with', async () => {
      const requestId = `replay-${randomBytes(4).toString('hex')}`;
      await replayAll(
        capture(appId, secret, 'POST', '/api/tasks', JSON.stringify({ requestId, handler: 'noop' })),
        202,
      );
      const rows: unknown[] = await node.ds.query(
        'SELECT id FROM job_instance WHERE namespace = ? AND request_id = ?',
        [node.config.namespace, requestId],
      );
      expect(rows).toHaveLength(1);
    });

    it('should run a job once from a captured trigger, whatever spelling of the app id it is replayed with', async () => {
      await replayAll(capture(appId, secret, 'POST', '/api/jobs/replayed/trigger', '{}'), 202);
      const rows: unknown[] = await node.ds.query(
        "SELECT i.id FROM job_instance i JOIN job_definition d ON d.id = i.job_id WHERE d.namespace = ? AND d.code = 'replayed' AND i.trigger_source = 'MANUAL'",
        [node.config.namespace],
      );
      expect(rows).toHaveLength(1);
    });

    it('should refuse a v1 signature (no app id signed) with the same 401, and log why at debug level', async () => {
      const lines: string[] = [];
      const spy = jest.spyOn(Logger.prototype, 'debug').mockImplementation(function (this: Logger, message: unknown) {
        if (this.context === 'SignedRequestMiddleware') lines.push(String(message));
      });
      let answer: Response;
      try {
        answer = await fetch(`${node.url}/api/jobs`, {
          headers: v1SignatureHeaders({ appId, secret }, 'GET', '/api/jobs'),
        });
      } finally {
        spy.mockRestore();
      }
      expect(answer.status).toBe(401);
      expect(await answer.json()).toMatchObject({ status: 401, detail: 'missing or invalid request signature' });
      expect(lines).toEqual([
        expect.stringMatching(/: v1 signature: the app id was not signed; sign with v2, see README 'Signing'$/),
      ]);
    });
  });
}

describeReplay('standalone', () => startNode(standaloneEnv()));
describeReplay('cluster: MariaDB + Redis', () => startNode(clusterEnv(uniqueNamespace('e2e-replay'))));
