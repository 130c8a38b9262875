import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One callback a {@link CallbackReceiver} got: when (epoch ms), its path, delivery id, headers and raw body. */
export interface CallbackHit {
  at: number;
  path: string;
  deliveryId: string;
  headers: IncomingHttpHeaders;
  body: string;
}

/** How to answer the `nth` (1-based) request of one delivery id (`hit`: the request): a status, or hold it open. */
export type CallbackAnswer = { status: number; headers?: Record<string, string> } | 'hold';

/** A loopback receiver of callbacks (docs/callbacks.md "What is sent") for integration and e2e tests. */
export interface CallbackReceiver {
  url: string;
  hits: CallbackHit[];
  /** Requests received per delivery id. */
  count(deliveryId: string): number;
  close(): Promise<void>;
}

/** Starts a receiver on 127.0.0.1 (free port) answering by `answer` (default: 200). Held requests stay open. */
export async function startCallbackReceiver(
  answer: (nth: number, deliveryId: string, hit: CallbackHit) => CallbackAnswer = () => ({ status: 200 }),
): Promise<CallbackReceiver> {
  const hits: CallbackHit[] = [];
  const held: ServerResponse[] = [];
  const count = (id: string) => hits.filter((h) => h.deliveryId === id).length;
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const deliveryId = String(req.headers['x-tickwheel-delivery'] ?? '');
      const hit = { at: Date.now(), path: req.url ?? '', deliveryId, headers: req.headers, body: '' };
      hit.body = Buffer.concat(chunks).toString();
      hits.push(hit);
      const a = answer(count(deliveryId), deliveryId, hit);
      if (a === 'hold') held.push(res);
      else res.writeHead(a.status, { 'content-type': 'text/plain', ...a.headers }).end('ok');
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`,
    hits,
    count,
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}
