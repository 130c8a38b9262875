// A callback receiver on loopback for the callback benchmark and the chaos check (docs/callbacks.md): checks each
// delivery's signature with the app's secret (the product's own verifyCallback), records it, and answers as told.
import { createServer } from 'node:http';

/**
 * @typedef {{deliveryId: string, requestId: string, instanceId: string, status: string, finishedAt: number,
 *   at: number, valid: boolean, reason?: string, path: string, answered: number}} Delivery
 */

/**
 * Starts a receiver on 127.0.0.1 (a free port).
 * @param {{verify: (headers: object, raw: Buffer) => {ok: boolean, reason?: string}, answer?: (d: Delivery) => number,
 *   blackHole?: boolean}} o `verify` checks a delivery (bind the secret); `answer` picks the status (default 200);
 *   `blackHole` accepts connections and never answers (a dead receiver).
 * @returns {Promise<{url: string, port: number, log: Delivery[], close: () => Promise<void>}>}
 */
export async function startCallbackReceiver({ verify, answer = () => 200, blackHole = false }) {
  /** @type {Delivery[]} */
  const log = [];
  const held = new Set();
  const server = createServer((req, res) => {
    if (blackHole) {
      held.add(res);
      res.on('close', () => held.delete(res));
      return;
    }
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      const raw = Buffer.concat(chunks);
      const verdict = verify(req.headers, raw);
      let body = {};
      try {
        body = JSON.parse(raw.toString('utf8'));
      } catch {
        /* counted as invalid below */
      }
      /** @type {Delivery} */
      const d = {
        deliveryId: String(req.headers['x-tickwheel-delivery'] ?? ''),
        requestId: String(body.requestId ?? ''),
        instanceId: String(body.instanceId ?? ''),
        status: String(body.status ?? ''),
        finishedAt: Date.parse(body.finishedAt ?? ''),
        at: Date.now(),
        valid: verdict.ok && body.deliveryId === req.headers['x-tickwheel-delivery'],
        reason: verdict.ok ? undefined : verdict.reason,
        path: req.url ?? '',
        answered: 0,
      };
      d.answered = d.valid ? answer(d) : 401;
      log.push(d);
      res.writeHead(d.answered, { 'content-type': 'application/json' }).end('{}');
    });
  });
  server.keepAliveTimeout = 60_000;
  await new Promise((r) => server.listen(0, '127.0.0.1', r));
  const port = server.address().port;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    log,
    close: () =>
      new Promise((r) => {
        for (const res of held) res.destroy();
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}
