import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One call of the built-in `http` handler as the receiver saw it: one side effect of one attempt. */
export interface SideEffect {
  requestId: string;
  instanceId: string;
  attempt: number;
  fencingToken: number;
  path: string;
  /** Arrival, epoch ms. */
  at: number;
}

/** How to answer one call: after `delayMs` with 200 and `{path, attempt}`, or only when released (`hold`; at close, the connection is cut). */
export type Answer = { delayMs: number } | { hold: true };

/** A receiver for `http` tasks that logs every call with the attempt headers the handler sends. */
export interface EffectLog {
  url: string;
  effects: SideEffect[];
  /** Side effects of one request id, in arrival order. */
  of(requestId: string): SideEffect[];
  /** Answers the held calls to `path` now (200, `{path, attempt}`). */
  release(path: string): void;
  /** Resolves with the first side effect of `requestId` at `attempt` or later (already seen or still to come). */
  next(requestId: string, attempt: number, timeoutMs?: number): Promise<SideEffect>;
  close(): Promise<void>;
}

/** Starts the receiver on 127.0.0.1 (free port); `answer(path, attempt)` decides each call's answer (default: at once). */
export async function startEffectLog(
  answer: (path: string, attempt: number) => Answer = () => ({ delayMs: 0 }),
): Promise<EffectLog> {
  const effects: SideEffect[] = [];
  const waiters: Array<(e: SideEffect) => void> = [];
  const held = new Map<ServerResponse, SideEffect>();
  const ok = (res: ServerResponse, e: SideEffect) =>
    res
      .writeHead(200, { 'content-type': 'application/json' })
      .end(JSON.stringify({ path: e.path, attempt: e.attempt }));
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      const h = req.headers;
      const e: SideEffect = {
        requestId: String(h['x-tickwheel-request-id'] ?? ''),
        instanceId: String(h['x-tickwheel-instance-id'] ?? ''),
        attempt: Number(h['x-tickwheel-attempt']),
        fencingToken: Number(h['x-tickwheel-fencing-token']),
        path: req.url ?? '',
        at: Date.now(),
      };
      effects.push(e);
      for (const w of [...waiters]) w(e);
      const a = answer(e.path, e.attempt);
      if ('hold' in a) {
        held.set(res, e);
        res.on('close', () => held.delete(res));
        return;
      }
      setTimeout(() => ok(res, e), a.delayMs);
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const of = (requestId: string) => effects.filter((e) => e.requestId === requestId);
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    effects,
    of,
    release: (path) => {
      for (const [res, e] of held) if (e.path === path) ok(res, e);
    },
    next: (requestId, attempt, timeoutMs = 30_000) =>
      new Promise((resolve, reject) => {
        const hit = of(requestId).find((e) => e.attempt >= attempt);
        if (hit) return resolve(hit);
        const timer = setTimeout(
          () => reject(new Error(`no side effect of ${requestId} at attempt >= ${attempt} within ${timeoutMs} ms`)),
          timeoutMs,
        );
        const w = (e: SideEffect) => {
          if (e.requestId !== requestId || e.attempt < attempt) return;
          clearTimeout(timer);
          waiters.splice(waiters.indexOf(w), 1);
          resolve(e);
        };
        waiters.push(w);
      }),
    close: () =>
      new Promise<void>((r) => {
        for (const res of held.keys()) res.destroy();
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}
