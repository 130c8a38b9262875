import { randomUUID } from 'node:crypto';
import { request as httpRequest } from 'node:http';
import { TickwheelClient } from '../../src/client/tickwheel-client.js';
import { neverFiringJob } from '../utils/jobs.js';
import { signedClient, standaloneEnv, startNode, TestNode } from '../utils/test-node.js';

type Body = Record<string, unknown>;
interface Raw {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
}

/** A signed request with raw header values (repeated headers, bytes fetch refuses), its answer as text. */
function raw(client: TickwheelClient, method: string, path: string, body: unknown, extra: Array<[string, string]>) {
  const payload = body === undefined ? '' : JSON.stringify(body);
  const headers: Array<[string, string]> = Object.entries(client.sign(method, path, payload));
  if (payload) headers.push(['content-type', 'application/json']);
  headers.push(['content-length', String(Buffer.byteLength(payload))]);
  const url = new URL(path, client.baseUrl);
  headers.push(['host', url.host]);
  return new Promise<Raw>((resolve, reject) => {
    const req = httpRequest(
      { host: url.hostname, port: url.port, path, method, headers: [...headers, ...extra].flat() },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (c: string) => (text += c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, text }));
      },
    );
    req.on('error', reject);
    req.end(payload);
  });
}

/** Hostile-client checks of Idempotency-Key (docs/api.md "Idempotency"), standalone shape. */
describe('Idempotency-Key attack (standalone)', () => {
  let node: TestNode;
  let a: TickwheelClient;
  let seq = 0;

  beforeAll(async () => {
    node = await startNode(standaloneEnv({ RATE_LIMIT_PER_SECOND: '0' }));
    a = await signedClient(node);
  }, 60_000);
  afterAll(async () => node?.close());

  const key = () => `k-${randomUUID()}`;
  async function twice(method: string, path: string, body?: unknown) {
    const k = key();
    const first = await raw(a, method, path, body, [['Idempotency-Key', k]]);
    const again = await raw(a, method, path, body, [['Idempotency-Key', k]]);
    return { first, again };
  }

  it('should replay created, registered, deleted and backfilled answers byte for byte', async () => {
    const create = await twice('POST', '/api/jobs', neverFiringJob(`att-${++seq}`));
    const job = JSON.parse(create.first.text) as Body;
    const register = await twice('POST', '/api/callbacks/register', { url: 'https://hooks.example.com/x' });
    const unregister = await twice('DELETE', '/api/callbacks');
    const range = { from: '2020-01-01T00:00:00Z', to: '2026-01-01T00:00:00Z' };
    const backfill = await twice('POST', `/api/jobs/${String(job.id)}/backfill`, range);
    for (const [r, status] of [
      [create, 201],
      [register, 200],
      [unregister, 204],
      [backfill, 200],
    ] as const) {
      expect([r.first.status, r.again.status, r.again.headers['idempotency-replayed']]).toEqual([
        status,
        status,
        'true',
      ]);
      expect(r.again.text).toBe(r.first.text);
      expect(r.again.headers['content-type']).toBe(r.first.headers['content-type']);
    }
  });

  it('should refuse the header sent twice with a 400 naming it, not run with the key "a, b"', async () => {
    const job = JSON.parse((await twice('POST', '/api/jobs', neverFiringJob(`att-${++seq}`))).first.text) as Body;
    const path = `/api/jobs/${String(job.id)}/pause`;
    const twoLines = await raw(a, 'POST', path, undefined, [
      ['Idempotency-Key', 'a'],
      ['Idempotency-Key', 'b'],
    ]);
    expect(twoLines.status).toBe(400);
    expect(JSON.parse(twoLines.text)).toMatchObject({ field: 'Idempotency-Key' });
    expect((await a.request<Body>('GET', `/api/jobs/${String(job.id)}`)).body.enabled).toBe(true);
    const oneLine = await raw(a, 'POST', path, undefined, [['Idempotency-Key', `a, b ${randomUUID()}`]]);
    expect(oneLine.status).toBe(200);
  });
});
