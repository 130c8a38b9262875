import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One call of the `http` handler: which instance, which attempt, when it came and when it was answered. */
export interface Call {
  path: string;
  instanceId: string;
  attempt: number;
  at: number;
  end: number | null;
}

/** How to answer a call: a status after `delayMs`, or hold it until the test lets it go. */
export type Answer = { status: number; delayMs: number } | { hold: true };

/**
 * A receiver for the `http` handler that measures, per path (one path per job), how many calls were in
 * flight at once: with one call per attempt, that is how many instances of the job ran at once.
 */
export async function startLimitReceiver(answer: (path: string, attempt: number) => Answer) {
  const calls: Call[] = [];
  const inFlight = new Map<string, number>();
  const peak = new Map<string, number>();
  const held = new Map<ServerResponse, Call>();
  const done = (c: Call) => {
    if (c.end !== null) return;
    c.end = Date.now();
    inFlight.set(c.path, (inFlight.get(c.path) ?? 1) - 1);
  };
  const reply = (res: ServerResponse, c: Call, status: number) => {
    done(c);
    res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify({ attempt: c.attempt }));
  };
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      const c: Call = {
        path: req.url ?? '',
        instanceId: String(req.headers['x-tickwheel-instance-id'] ?? ''),
        attempt: Number(req.headers['x-tickwheel-attempt']),
        at: Date.now(),
        end: null,
      };
      calls.push(c);
      const n = (inFlight.get(c.path) ?? 0) + 1;
      inFlight.set(c.path, n);
      peak.set(c.path, Math.max(peak.get(c.path) ?? 0, n));
      // An aborted attempt (cancel, timeout) ends when its connection does: at the FIN ('end', read in the poll phase
      // in arrival order, so before a call that was sent after the abort), or at the latest at 'close' (emitted a
      // loop phase later: a call that arrived in the same loop turn would otherwise look as if it came first).
      const onEnd = () => done(c);
      req.socket.once('end', onEnd);
      res.on('close', () => {
        req.socket.off('end', onEnd);
        done(c);
      });
      const a = answer(c.path, c.attempt);
      if ('hold' in a) held.set(res, c);
      else setTimeout(() => reply(res, c, a.status), a.delayMs);
    });
  });
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    calls,
    of: (path: string) => calls.filter((c) => c.path === path),
    peak: (path: string) => peak.get(path) ?? 0,
    inFlight: (path: string) => inFlight.get(path) ?? 0,
    /** Answers the held calls to `path` (of `instanceId` only, when given) with 200. */
    release: (path: string, instanceId?: string) => {
      for (const [res, c] of held)
        if (c.path === path && (!instanceId || c.instanceId === instanceId)) {
          held.delete(res);
          reply(res, c, 200);
        }
    },
    close: () =>
      new Promise<void>((r) => {
        for (const res of held.keys()) res.destroy();
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}

export type LimitReceiver = Awaited<ReturnType<typeof startLimitReceiver>>;
