// The side-effect log of the chaos check: an HTTP endpoint in the chaos process that the product's built-in
// `http` handler calls. Every call is one side effect, recorded with the headers the handler sends
// (request id, instance id, attempt, fencing token) before it is answered, so an attempt that reached the
// receiver is in the log even when its executor dies before the answer arrives. A call to `/fail…` is answered
// 500: the run's planned failures (their `http` handler fails the attempt).
import { createServer } from 'node:http';

/**
 * @typedef {{requestId: string, instanceId: string, attempt: number, token: number, at: number, path: string}} SideEffect
 */

/**
 * Starts the receiver on 127.0.0.1 (free port).
 * @param {{workMs: () => number}} o `workMs()` is how long one call is held before the answer (the handler's "work")
 * @returns {Promise<{url: string, log: SideEffect[], onEffect: (fn: (e: SideEffect) => void) => void, close: () => Promise<void>}>}
 */
export async function startReceiver({ workMs }) {
  /** @type {SideEffect[]} */
  const log = [];
  const listeners = [];
  const held = new Set();
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      const h = req.headers;
      /** @type {SideEffect} */
      const e = {
        requestId: String(h['x-tickwheel-request-id'] ?? ''),
        instanceId: String(h['x-tickwheel-instance-id'] ?? ''),
        attempt: Number(h['x-tickwheel-attempt'] ?? NaN),
        token: Number(h['x-tickwheel-fencing-token'] ?? NaN),
        at: Date.now(),
        path: req.url ?? '',
      };
      log.push(e);
      for (const fn of listeners) fn(e);
      // `/hold` never answers on its own: a long task that runs until its executor dies (kill-latency mode).
      if (e.path.startsWith('/hold')) {
        held.add(res);
        res.on('close', () => held.delete(res));
        return;
      }
      const status = e.path.startsWith('/fail') ? 500 : 200;
      setTimeout(() => res.writeHead(status, { 'content-type': 'application/json' }).end('{"ok":true}'), workMs());
    });
  });
  server.keepAliveTimeout = 60_000;
  await new Promise((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${server.address().port}`,
    log,
    onEffect: (fn) => listeners.push(fn),
    close: () =>
      new Promise((r) => {
        for (const res of held) res.destroy();
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}
