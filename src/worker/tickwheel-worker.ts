import type { LoggerService } from '@nestjs/common';
import { hostname } from 'node:os';
import type { JobHandlerImpl } from '../modules/handler/index.js';
import {
  type NodeSettings,
  problemDetail,
  type RetryPlan,
  sleep,
  WorkerApi,
  WorkerApiError,
  type WorkerAttempt,
} from './worker-api.js';
import { finishTrouble, WorkerAttemptRun } from './worker-attempt.js';
import {
  type ResolvedWorkerOptions,
  resolveWorkerOptions,
  type WorkerHandler,
  type WorkerOptions,
} from './worker-options.js';

const NAME = /^[A-Za-z0-9_.:-]{1,128}$/;
/** The built-in handlers run only on trusted executors (docs/workers.md "Tenancy"): a worker never advertises them. */
export const BUILTIN_HANDLER_NAMES: ReadonlySet<string> = new Set(['noop', 'http', 'shell']);
/** Longest `error` of a finish, characters (the route's bound). */
const ERROR_MAX = 4000;
/** Claims asked for in one call at most (the route's bound). */
const CLAIM_MAX = 100;
/** Backoff of the loops (register, claims) between failed calls, ms. */
const LOOP_RETRY = { baseDelayMs: 250, maxDelayMs: 10_000 };
/** A finish is tried this long (about): past it, the lease has likely ended and the take-back owns the row. */
const FINISH_RETRY: RetryPlan = { tries: 8, baseDelayMs: 250, maxDelayMs: 5_000 };

/** Options of the plain entry point: the handlers by name, beside the {@link WorkerOptions}. */
export interface TickwheelWorkerOptions extends WorkerOptions {
  handlers: Record<string, WorkerHandler>;
}

interface Running {
  run: WorkerAttemptRun;
  nodeId: string;
  done: Promise<void>;
}

/**
 * An app worker (docs/workers.md): registers a node advertising its handlers, heartbeats every
 * heartbeatIntervalMs, long-polls claims while it has free slots, runs each attempt ({@link WorkerAttemptRun}),
 * renews leases every leaseRenewMs (aborting the attempts the api reports lost or revoked), finishes each
 * attempt, and on {@link stop} drains (heartbeat draining, no more claims, the drain grace, abort with SHUTDOWN,
 * finish, DELETE the node). Network errors are retried with backoff, a fresh signature each try; a heartbeat's
 * `404` (node expired) registers again.
 *
 * ```ts
 * const worker = new TickwheelWorker({ handlers: { 'report.daily': async (ctx) => ({ ok: true }) } });
 * await worker.start();
 * process.once('SIGTERM', () => void worker.stop());
 * ```
 */
export class TickwheelWorker {
  private readonly opts: ResolvedWorkerOptions;
  private readonly handlers = new Map<string, JobHandlerImpl>();
  private readonly api: WorkerApi;
  private readonly logger: LoggerService;
  private readonly running = new Map<string, Running>();
  private readonly stopping = new AbortController();
  private node: NodeSettings | null = null;
  private registering: Promise<void> | null = null;
  private draining = false;
  private state: 'new' | 'started' | 'stopping' | 'stopped' = 'new';
  private timers: NodeJS.Timeout[] = [];
  private claimLoop: Promise<void> = Promise.resolve();
  private slotFreed: (() => void) | null = null;
  private stopped: Promise<void> | null = null;

  /**
   * @throws Error when a setting is missing or invalid (see {@link resolveWorkerOptions}), when there is no handler,
   * or a handler's name is invalid, a built-in's name, or has no `execute`.
   */
  constructor(options: TickwheelWorkerOptions) {
    this.opts = resolveWorkerOptions(options, process.env, hostname());
    this.logger = this.opts.loggerFor('TickwheelWorker');
    for (const [name, h] of Object.entries(options.handlers)) {
      const impl: JobHandlerImpl | undefined = typeof h === 'function' ? { execute: h } : h;
      if (!NAME.test(name)) throw new Error(`handler '${name}': a name is 1-128 of [A-Za-z0-9_.:-]`);
      if (BUILTIN_HANDLER_NAMES.has(name)) throw new Error(`handler '${name}': built-in handlers run on executors`);
      if (typeof impl?.execute !== 'function') throw new Error(`handler '${name}' has no execute(ctx) method`);
      this.handlers.set(name, impl);
    }
    if (this.handlers.size === 0) throw new Error('tickwheel worker: no handlers to run');
    if (this.handlers.size > 100) throw new Error('tickwheel worker: at most 100 handlers per worker');
    this.api = new WorkerApi(this.opts, (route, why, ms) =>
      this.logger.warn(`${route} failed (${why}); trying again in ${ms} ms`),
    );
  }

  /** The node id while registered (changes after a re-registration), else null. */
  get nodeId(): string | null {
    return this.node?.nodeId ?? null;
  }

  /** Attempts running now. */
  get active(): number {
    return this.running.size;
  }

  /**
   * Registers the node (tried again through network errors and 5xx until {@link stop}) and starts the loops.
   * @throws WorkerApiError when the api refuses the registration (400 bad handlers, 401, 403 no `worker` scope).
   */
  async start(): Promise<void> {
    if (this.state !== 'new') throw new Error(`tickwheel worker: start() called when ${this.state}`);
    this.state = 'started';
    await this.register();
    const s = this.node as NodeSettings;
    this.timers.push(
      setInterval(
        once(() => this.heartbeat()),
        s.heartbeatIntervalMs,
      ),
    );
    this.timers.push(
      setInterval(
        once(() => this.renewLeases()),
        s.leaseRenewMs,
      ),
    );
    this.claimLoop = this.claimUntilDraining();
  }

  /**
   * Drains and deregisters (docs/workers.md "Lifecycle"): heartbeat `draining`, no more claims, running handlers
   * get `drainGraceMs`, then their signal aborts (SHUTDOWN) and each is finished (handed back); then `DELETE` the
   * node. Resolves when done; calling it again returns the same promise. Never throws.
   */
  stop(): Promise<void> {
    this.stopped ??= this.drain();
    return this.stopped;
  }

  private async drain(): Promise<void> {
    if (this.state === 'new') {
      this.state = 'stopped';
      return;
    }
    this.state = 'stopping';
    this.draining = true;
    // Ends a waiting claim at once: what the api claimed for it meanwhile is taken back by the DELETE below.
    this.stopping.abort(new Error('SHUTDOWN'));
    this.slotFreed?.();
    const grace = this.opts.drainGraceMs;
    this.logger.log(`draining: ${this.running.size} attempt(s) running, ${grace} ms grace`);
    await this.heartbeat();
    const deadline = Date.now() + grace;
    while (this.running.size > 0 && Date.now() < deadline) await sleep(Math.min(50, deadline - Date.now()));
    if (this.running.size > 0) this.logger.warn(`drain grace over: aborting ${this.running.size} attempt(s)`);
    for (const r of this.running.values()) r.run.abort('SHUTDOWN');
    await Promise.all([...this.running.values()].map((r) => r.done));
    await this.claimLoop;
    await Promise.all([...this.running.values()].map((r) => r.done)); // what the last claim handed back
    for (const t of this.timers) clearInterval(t);
    this.timers = [];
    const nodeId = this.nodeId;
    if (nodeId) {
      const a = await this.api
        .deregister(nodeId, { tries: 3, baseDelayMs: 200, maxDelayMs: 1_000 })
        .catch((err: Error) => ({ status: 0, body: err.message }));
      if (a.status !== 204 && a.status !== 404)
        this.logger.warn(`deregistering ${nodeId}: ${a.status} ${problemDetail(a.body)}`);
    }
    this.node = null;
    this.state = 'stopped';
    this.logger.log('stopped');
  }

  /** Registers (again); one registration at a time. */
  private register(): Promise<void> {
    this.registering ??= this.registerOnce().finally(() => (this.registering = null));
    return this.registering;
  }

  private async registerOnce(): Promise<void> {
    const body = { handlers: [...this.handlers.keys()].sort(), capacity: this.opts.concurrency, host: this.opts.host };
    const plan = { tries: Infinity, ...LOOP_RETRY, signal: this.stopping.signal };
    const a = await this.api.register(body, plan);
    if (a.status !== 201 && a.status !== 200) {
      throw new WorkerApiError(a.status, 'POST /api/worker/nodes', problemDetail(a.body));
    }
    this.node = a.body;
    this.logger.log(
      `registered node ${a.body.nodeId} (handlers ${body.handlers.join(', ')}, capacity ${body.capacity})`,
    );
  }

  /** One heartbeat; a `404` (node expired) registers again. Never throws. */
  private async heartbeat(): Promise<void> {
    const node = this.node;
    if (!node || this.registering) return;
    try {
      const a = await this.api.heartbeat(node.nodeId, {
        active: this.running.size,
        draining: this.draining || undefined,
      });
      if (a.status === 404 && !this.draining) await this.nodeLost(node.nodeId);
      else if (a.status >= 300) this.logger.warn(`heartbeat: ${a.status} ${problemDetail(a.body)}`);
    } catch (err) {
      this.logger.warn(`heartbeat failed: ${(err as Error).message}`);
    }
  }

  /**
   * The api no longer knows node `nodeId` (it expired): its attempts were taken back, so they are aborted
   * (LEASE_LOST, not finished), and the worker registers again.
   */
  private async nodeLost(nodeId: string): Promise<void> {
    if (this.node?.nodeId !== nodeId) return;
    this.logger.warn(`node ${nodeId} expired on the api: registering again`);
    for (const r of this.running.values()) if (r.nodeId === nodeId) r.run.abort('LEASE_LOST');
    this.node = null;
    try {
      await this.register();
    } catch (err) {
      this.logger.error(`registering again failed: ${(err as Error).message}`);
    }
  }

  /** Renews the leases of the running attempts; aborts the ones reported lost. Never throws. */
  private async renewLeases(): Promise<void> {
    const node = this.node;
    if (!node) return;
    const mine = [...this.running.values()].filter((r) => r.nodeId === node.nodeId && !r.run.controller.signal.aborted);
    if (mine.length === 0) return;
    const attempts = mine.map((r) => ({
      instanceId: r.run.attempt.instanceId,
      fencingToken: r.run.attempt.fencingToken,
    }));
    try {
      const a = await this.api.leases(node.nodeId, attempts);
      if (a.status === 404) return void (this.draining ? undefined : this.nodeLost(node.nodeId));
      if (a.status !== 200) return this.logger.warn(`lease renewal: ${a.status} ${problemDetail(a.body)}`);
      for (const lost of a.body.lost ?? []) {
        const r = this.running.get(lost.instanceId);
        if (!r || r.run.attempt.fencingToken !== lost.fencingToken) continue;
        this.logger.warn(
          `attempt ${lost.instanceId} (token ${lost.fencingToken}) ${lost.reason}: aborting its handler`,
        );
        r.run.abort(lost.reason === 'REVOKED' ? 'REVOKED' : 'LEASE_LOST');
      }
    } catch (err) {
      this.logger.warn(`lease renewal failed: ${(err as Error).message}`);
    }
  }

  /** Claims while there are free slots, until the drain starts. */
  private async claimUntilDraining(): Promise<void> {
    for (let failures = 0; !this.draining;) {
      const free = this.opts.concurrency - this.running.size;
      if (free <= 0) {
        await new Promise<void>((r) => (this.slotFreed = r));
        this.slotFreed = null;
        continue;
      }
      if (!this.node) await this.register().catch(() => undefined);
      const node = this.node;
      if (!node || this.draining) {
        if (!this.draining) await sleep(backoffOf(failures++), this.stopping.signal).catch(() => undefined);
        continue;
      }
      const waitMs = Math.min(this.opts.claimWaitMs ?? node.maxClaimWaitMs, node.maxClaimWaitMs);
      try {
        const a = await this.api.claims(
          node.nodeId,
          { max: Math.min(free, CLAIM_MAX), waitMs },
          { tries: 1, ...LOOP_RETRY, signal: this.stopping.signal },
        );
        if (a.status === 200) {
          failures = 0;
          for (const item of a.body.items ?? []) this.begin(item, node.nodeId);
          continue;
        }
        if (a.status === 404 && !this.draining) await this.nodeLost(node.nodeId);
        else this.logger.warn(`claims: ${a.status} ${problemDetail(a.body)}`);
      } catch (err) {
        if (this.draining) break;
        this.logger.warn(`claims failed: ${(err as Error).message}`);
      }
      await sleep(backoffOf(failures++), this.stopping.signal).catch(() => undefined);
    }
  }

  /** Runs a claimed attempt (or, while draining, hands it straight back), then finishes it. */
  private begin(item: WorkerAttempt, nodeId: string): void {
    const handler = this.handlers.get(item.handler);
    const run = new WorkerAttemptRun(item, handler ?? { execute: () => Promise.reject(noHandler(item.handler)) }, {
      address: { api: this.api, nodeId, logger: this.logger },
      checkpointMaxBytes: this.opts.checkpointMaxBytes,
      progressIntervalMs: this.opts.progressIntervalMs,
      logFlushMs: this.opts.logFlushMs,
      loggerFor: this.opts.loggerFor,
    });
    if (this.draining) run.abort('SHUTDOWN'); // claimed as the drain began: handed back at once
    const done = run
      .run()
      .then((end) => this.finish(nodeId, item.instanceId, end.finish))
      .catch((err: Error) => this.logger.error(`attempt ${item.instanceId}: ${err.message}`))
      .finally(() => {
        this.running.delete(item.instanceId);
        this.slotFreed?.();
      });
    this.running.set(item.instanceId, { run, nodeId, done });
  }

  private async finish(nodeId: string, instanceId: string, body: Parameters<WorkerApi['finish']>[2] | null) {
    if (!body) {
      this.logger.warn(`attempt ${instanceId} lost its lease: not finished (the api took it back)`);
      return;
    }
    if (body.error !== undefined) body.error = cutError(body.error);
    try {
      JSON.stringify(body);
    } catch (err) {
      body = {
        fencingToken: body.fencingToken,
        outcome: 'FAILED',
        error: cutError(`result is not JSON: ${String(err)}`),
      };
    }
    let a = await this.api.finish(nodeId, instanceId, body, FINISH_RETRY);
    if ((a.status === 400 || a.status === 413) && body.outcome !== 'FAILED') {
      // a result the api cannot take (over its body limit, not JSON-storable): the attempt fails instead of
      // staying RUNNING until its lease ends
      const error = cutError(`the api refused the finish (${a.status} ${problemDetail(a.body)})`);
      a = await this.api.finish(
        nodeId,
        instanceId,
        { fencingToken: body.fencingToken, outcome: 'FAILED', error },
        FINISH_RETRY,
      );
    }
    const trouble = finishTrouble(instanceId, a.status, a.body);
    if (trouble) this.logger.warn(trouble);
    else this.logger.debug?.(`attempt ${instanceId} finished ${body.outcome}: ${JSON.stringify(a.body)}`);
  }
}

/** A finish's `error` within the route's bound (4000 characters). */
export function cutError(error: string): string {
  return error.length <= ERROR_MAX ? error : `${error.slice(0, ERROR_MAX - 20)} …[cut]`;
}

/** `tick` as a timer callback that skips a tick while the previous call is still running. */
function once(tick: () => Promise<void>): () => void {
  let busy = false;
  return () => {
    if (busy) return;
    busy = true;
    void tick().finally(() => (busy = false));
  };
}

function backoffOf(failures: number): number {
  const full = Math.min(LOOP_RETRY.maxDelayMs, LOOP_RETRY.baseDelayMs * 2 ** Math.min(failures, 20));
  return Math.round(full / 2 + (Math.random() * full) / 2);
}

function noHandler(name: string): Error {
  return new Error(`no handler '${name}' on this worker`);
}
