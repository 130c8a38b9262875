import type { TickwheelClient, TickwheelResponse } from '../../src/client/tickwheel-client.js';

/** What one API answer was: its status (0: no answer, a connection error; -1: none within the probe's limit). */
export interface ProbeAnswer {
  at: number;
  ms: number;
  status: number;
  retryAfter: string | null;
  /** A 202 that replays an earlier try of the same request id (that try had committed, its answer was lost). */
  replayed: boolean;
}

/** A client's view of the API through a fault: single submits, each retried with its requestId until accepted. */
export interface ApiProbe {
  answers: ProbeAnswer[];
  /** The request ids submitted, each answered 202 once the probe stops (or still retried when it gave up). */
  requestIds: string[];
  /** Stops submitting new tasks and waits until the one in flight is accepted. */
  stop(): Promise<void>;
}

const HANG_MS = 20_000;

/**
 * Every `everyMs`, submits one `http` task to `url` with a new request id, as a client would: a 5xx or a connection
 * error is retried with the same request id (the idempotency key) until a 202. Records every answer.
 */
export function startApiProbe(client: () => TickwheelClient, prefix: string, url: string, everyMs = 100): ApiProbe {
  const answers: ProbeAnswer[] = [];
  const requestIds: string[] = [];
  let stopping = false;
  const ask = async (task: Record<string, unknown>): Promise<number> => {
    const at = Date.now();
    let timer: NodeJS.Timeout | undefined;
    const limit = new Promise<null>((r) => (timer = setTimeout(() => r(null), HANG_MS)));
    let res: TickwheelResponse | null | 'error';
    try {
      res = await Promise.race([client().submitTask(task), limit]);
    } catch {
      res = 'error';
    } finally {
      clearTimeout(timer);
    }
    const status = res === null ? -1 : res === 'error' ? 0 : res.status;
    const retryAfter = res && res !== 'error' ? res.headers.get('retry-after') : null;
    const replayed = res !== null && res !== 'error' && (res.body as { replayed?: boolean })?.replayed === true;
    answers.push({ at, ms: Date.now() - at, status, retryAfter, replayed });
    return status;
  };
  const done = (async () => {
    for (let i = 0; !stopping; i++) {
      const requestId = `${prefix}-p${i}`;
      requestIds.push(requestId);
      const task = {
        requestId,
        handler: 'http',
        params: { method: 'POST', url },
        maxAttempts: 20,
        retryBackoffMs: 100,
      };
      for (;;) {
        const status = await ask(task);
        if (status === 202) break;
        if (status >= 400 && status < 500) throw new Error(`probe ${requestId}: ${status}`);
        await new Promise((r) => setTimeout(r, everyMs));
      }
      await new Promise((r) => setTimeout(r, everyMs));
    }
  })();
  return {
    answers,
    requestIds,
    stop: async () => {
      stopping = true;
      await done;
    },
  };
}

/** Counts of `answers` per status (a replayed 202 apart), and the longest answer time (ms). */
export function summarize(answers: ProbeAnswer[]): { byStatus: Record<string, number>; maxMs: number } {
  const byStatus: Record<string, number> = {};
  for (const a of answers) {
    const key = a.replayed ? `${a.status} replayed` : String(a.status);
    byStatus[key] = (byStatus[key] ?? 0) + 1;
  }
  return { byStatus, maxMs: Math.max(0, ...answers.map((a) => a.ms)) };
}
