import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { SIGNATURE_HEADERS, signRequest } from '../../src/common/index.js';
import type { LostLease, NodeSettings, WorkerAttempt } from '../../src/worker/index.js';

/** One request the fake received (signature checked), body parsed. */
export interface SeenRequest {
  method: string;
  path: string;
  route: string;
  nodeId?: string;
  instanceId?: string;
  body: Record<string, unknown> | null;
  nonce: string;
  at: number;
}

/**
 * A small in-test api of the worker routes (docs/workers.md "Routes") on a real loopback HTTP server: it checks
 * each request's v2 signature, keeps nodes, hands out queued attempts through the claims long poll, and lets a test
 * inject what the real api would answer (a lost lease, a stale checkpoint, an expired node, a dropped connection).
 * Not a model of the stores: only what a worker sees.
 */
export class FakeWorkerApi {
  readonly seen: SeenRequest[] = [];
  readonly nodes = new Set<string>();
  readonly queue: WorkerAttempt[] = [];
  /** instanceId → reason reported by the next lease renewal naming it. */
  readonly lost = new Map<string, LostLease['reason']>();
  /** instanceIds whose checkpoints answer 409. */
  readonly staleCheckpoints = new Set<string>();
  /** instanceIds whose finish answers 409. */
  readonly lostFinishes = new Set<string>();
  /** instanceIds whose SUCCESS finish answers 413 (a result over the api's body limit). */
  readonly tooLarge = new Set<string>();
  /** route name ('register', 'finish', ...) → connections to drop before answering. */
  readonly drops = new Map<string, number>();
  /** How long finishes are held before their answer, ms. */
  finishDelayMs = 0;
  settings: Omit<NodeSettings, 'nodeId'> = {
    heartbeatIntervalMs: 100,
    leaseMs: 2_000,
    leaseRenewMs: 100,
    nodeTimeoutMs: 1_000,
    maxClaimWaitMs: 200,
  };
  private server: Server | null = null;
  private nodeSeq = 0;
  private waiters: Array<() => void> = [];

  constructor(
    private readonly appId = 'app-test',
    private readonly secret = 's3cret-of-the-test-app',
  ) {}

  get creds() {
    return { url: this.url, appId: this.appId, secret: this.secret };
  }

  get url(): string {
    const a = this.server?.address() as AddressInfo;
    return `http://127.0.0.1:${a.port}`;
  }

  async start(): Promise<this> {
    this.server = createServer((req, res) => void this.handle(req, res));
    await new Promise<void>((r) => this.server?.listen(0, '127.0.0.1', r));
    return this;
  }

  async close(): Promise<void> {
    for (const w of this.waiters) w();
    this.server?.closeAllConnections();
    await new Promise<void>((r) => this.server?.close(() => r()));
  }

  /** Queues attempts for the claims route (wakes a waiting long poll). */
  push(...items: WorkerAttempt[]): void {
    this.queue.push(...items);
    for (const w of this.waiters.splice(0)) w();
  }

  /** The requests of route `route`. */
  of(route: string): SeenRequest[] {
    return this.seen.filter((s) => s.route === route);
  }

  /** Resolves once `pred` holds (checked every 10 ms), or rejects after `ms`. */
  async until(pred: () => boolean, ms = 5_000, what = 'condition'): Promise<void> {
    const end = Date.now() + ms;
    while (!pred()) {
      if (Date.now() > end) throw new Error(`fake worker api: timed out waiting for ${what}`);
      await new Promise((r) => setTimeout(r, 10));
    }
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const raw = Buffer.concat(chunks).toString('utf8');
    const method = req.method ?? 'GET';
    const path = req.url ?? '/';
    const m =
      /^\/api\/worker\/nodes(?:\/([^/]+)(?:\/(heartbeat|claims|leases|finishes)|\/attempts\/([^/]+)\/(\w+))?)?$/.exec(
        path,
      );
    if (!m) return send(res, 404, { title: 'Not Found' });
    const route = !m[1] ? 'register' : method === 'DELETE' ? 'deregister' : (m[2] ?? m[4]);
    const nodeId = m[1] ? decodeURIComponent(m[1]) : undefined;
    const instanceId = m[3] ? decodeURIComponent(m[3]) : undefined;
    const drops = this.drops.get(route) ?? 0;
    if (drops > 0) {
      this.drops.set(route, drops - 1);
      req.socket.destroy();
      return;
    }
    const h = (k: string) => String(req.headers[k] ?? '');
    const expected = signRequest(this.secret, {
      appId: h(SIGNATURE_HEADERS.appId),
      method,
      pathAndQuery: path,
      timestampMs: h(SIGNATURE_HEADERS.timestamp),
      nonce: h(SIGNATURE_HEADERS.nonce),
      body: raw,
    });
    if (h(SIGNATURE_HEADERS.appId) !== this.appId || h(SIGNATURE_HEADERS.signature) !== expected) {
      return send(res, 401, { title: 'Unauthorized', detail: 'bad signature' });
    }
    if (this.seen.some((s) => s.nonce === h(SIGNATURE_HEADERS.nonce)))
      return send(res, 401, { detail: 'nonce reused' });
    const body = raw ? (JSON.parse(raw) as Record<string, unknown>) : null;
    this.seen.push({
      method,
      path,
      route,
      nodeId,
      instanceId,
      body,
      nonce: h(SIGNATURE_HEADERS.nonce),
      at: Date.now(),
    });
    if (route === 'register') {
      const id = `node-${++this.nodeSeq}`;
      this.nodes.add(id);
      return send(res, 201, { nodeId: id, ...this.settings });
    }
    if (!nodeId || !this.nodes.has(nodeId)) return send(res, 404, { title: 'Not Found', detail: 'no such node' });
    if ((route === 'finish' || route === 'finishes') && this.finishDelayMs > 0)
      await new Promise((r) => setTimeout(r, this.finishDelayMs));
    switch (route) {
      case 'heartbeat':
        return send(res, 204);
      case 'deregister':
        this.nodes.delete(nodeId);
        return send(res, 204);
      case 'claims':
        return send(res, 200, { items: await this.claim(Number(body?.max), Number(body?.waitMs)) });
      case 'leases': {
        const attempts = (body?.attempts ?? []) as Array<{ instanceId: string; fencingToken: number }>;
        const lost: LostLease[] = [];
        for (const a of attempts) {
          const reason = this.lost.get(a.instanceId);
          if (reason) lost.push({ ...a, reason });
        }
        return send(res, 200, { leaseUntil: Date.now() + this.settings.leaseMs, lost });
      }
      case 'checkpoint':
        if (instanceId && this.staleCheckpoints.has(instanceId)) return send(res, 409, { detail: 'stale token' });
        return send(res, 204);
      case 'progress':
      case 'logs':
        return send(res, 204);
      case 'finish': {
        const [status, answer] = this.finishAnswer(instanceId ?? '', body);
        return send(res, status, answer);
      }
      case 'finishes': {
        // One seen 'finish' per item (what each single call would have been), unless the call is refused whole.
        const items = (body?.items ?? []) as Array<Record<string, unknown> & { instanceId: string }>;
        const whole = items.map((i) => this.finishAnswer(i.instanceId, i)).find(([code]) => code === 413);
        if (whole) return send(res, ...whole);
        const at = Date.now();
        const out = items.map(({ instanceId: id, ...item }) => {
          this.seen.push({ method, path, route: 'finish', nodeId, instanceId: id, body: item, nonce: '', at });
          const [code, answer] = this.finishAnswer(id, item);
          return { instanceId: id, fencingToken: item.fencingToken, code, ...answer };
        });
        return send(res, 200, { items: out });
      }
      default:
        return send(res, 404, { title: 'Not Found' });
    }
  }

  /** What the finish route answers for `instanceId`'s finish `body`. */
  private finishAnswer(instanceId: string, body: Record<string, unknown> | null): [number, Record<string, unknown>] {
    if (this.lostFinishes.has(instanceId)) return [409, { detail: 'the write lost' }];
    if (this.tooLarge.has(instanceId) && body?.outcome === 'SUCCESS')
      return [413, { title: 'Payload Too Large', detail: 'request body over 1 MB' }];
    return [200, { status: body?.outcome === 'SUCCESS' ? 'SUCCESS' : 'PENDING', final: true }];
  }

  private async claim(max: number, waitMs: number): Promise<WorkerAttempt[]> {
    if (this.queue.length === 0 && waitMs > 0) {
      await new Promise<void>((r) => {
        const t = setTimeout(r, waitMs);
        this.waiters.push(() => {
          clearTimeout(t);
          r();
        });
      });
    }
    return this.queue.splice(0, max);
  }
}

function send(res: ServerResponse, status: number, body?: unknown): void {
  if (body === undefined) {
    res.writeHead(status).end();
    return;
  }
  const type = status >= 400 ? 'application/problem+json' : 'application/json';
  res.writeHead(status, { 'content-type': type }).end(JSON.stringify(body));
}

let seq = 0;

/** A claimed attempt of handler `handler` with test defaults; `over` replaces fields. */
export function attemptOf(handler: string, over: Partial<WorkerAttempt> = {}): WorkerAttempt {
  const n = ++seq;
  return {
    instanceId: `inst-${n}`,
    requestId: `req-${n}`,
    appId: 'app-test',
    jobCode: null,
    handler,
    params: { n },
    attempt: 1,
    maxAttempts: 3,
    fencingToken: 100 + n,
    leaseUntil: Date.now() + 2_000,
    timeoutMs: 60_000,
    heartbeatTimeoutMs: 0,
    shardIndex: 0,
    shardTotal: 1,
    fireTime: Date.now(),
    traceId: `trace-${n}`,
    traceparent: `00-${String(n).padStart(32, '0')}-${String(n).padStart(16, '0')}-01`,
    lastCheckpoint: null,
    ...over,
  };
}
