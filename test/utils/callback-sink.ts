import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { verifyCallback } from '../../src/client/tickwheel-client.js';

/** One callback a {@link CallbackSink} received: its verdict, path, delivery id and parsed body. */
export interface ReceivedCallback {
  path: string;
  deliveryId: string;
  valid: boolean;
  body: Record<string, unknown>;
  headers: IncomingHttpHeaders;
  at: number;
}

/** A loopback callback receiver for tests: verifies signatures with `secrets` (by app) and records every call. */
export interface CallbackSink {
  url: string;
  received: ReceivedCallback[];
  /** Secrets to verify with; a delivery no secret verifies is recorded `valid: false` and answered 401. */
  secrets: string[];
  close(): Promise<void>;
}

/** Starts a sink on 127.0.0.1 (free port); `answer(path)` picks the status (default 200). */
export async function startCallbackSink(answer: (path: string) => number = () => 200): Promise<CallbackSink> {
  const received: ReceivedCallback[] = [];
  const secrets: string[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const raw = Buffer.concat(chunks);
      const verdict = secrets.map((s) => verifyCallback(req.headers, raw, s)).find((v) => v.ok);
      let body: Record<string, unknown> = {};
      try {
        body = JSON.parse(raw.toString('utf8')) as Record<string, unknown>;
      } catch {
        /* recorded as received */
      }
      const path = req.url ?? '';
      received.push({
        path,
        deliveryId: String(req.headers['x-tickwheel-delivery'] ?? ''),
        valid: !!verdict,
        body,
        headers: req.headers,
        at: Date.now(),
      });
      res.writeHead(verdict ? answer(path) : 401).end();
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    received,
    secrets,
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}
