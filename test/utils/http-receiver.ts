import { createServer, Server } from 'node:http';
import { AddressInfo } from 'node:net';

/** A local HTTP endpoint for `http` tasks that counts each X-Tickwheel-Request-Id it receives. */
export interface HttpReceiver {
  url: string;
  seen: Map<string, number>;
  close(): Promise<void>;
}

/** Starts the receiver on 127.0.0.1 (free port). `delayMs` holds each answer (for slow-handler tests). */
export async function startReceiver(opts: { delayMs?: number; status?: number } = {}): Promise<HttpReceiver> {
  const seen = new Map<string, number>();
  const server: Server = createServer((req, res) => {
    const id = String(req.headers['x-tickwheel-request-id'] ?? '');
    req.resume();
    req.on('end', () => {
      seen.set(id, (seen.get(id) ?? 0) + 1);
      setTimeout(() => {
        res.writeHead(opts.status ?? 200, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ ok: true, id }));
      }, opts.delayMs ?? 0);
    });
  });
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    seen,
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}
