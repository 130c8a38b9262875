import type { LoggerService } from '@nestjs/common';
import { hostname } from 'node:os';
import type { JobHandlerImpl } from '../modules/handler/index.js';
import {
  type NodeSettings,
  problemDetail,
  sleep,
  WorkerApi,
  WorkerApiError,
  type WorkerAttempt,
} from './worker-api.js';
import { WorkerAttemptRun } from './worker-attempt.js';
import { WorkerFinishes } from './worker-finishes.js';
import {
  type ResolvedWorkerOptions,
  resolveWorkerOptions,
  type WorkerHandler,
  type WorkerOptions,
} from './worker-options.js';

const NAME = /^[A-Za-z0-9_.:-]{1,128}$/;
/** The built-in handlers run only on trusted executors (docs/workers.md "Tenancy"): a worker never advertises them. */
export const BUILTIN_HANDLER_NAMES: ReadonlySet<string> = new Set(['noop', 'http', 'shell']);
/** Claims asked for in one call at most (the route's bound). */
const CLAIM_MAX = 100;
/** Backoff of the loops (register, claims) between failed calls, ms. */
const LOOP_RETRY = { baseDelayMs: 250, maxDelayMs: 10_000 };
/**
 * Attempts whose handler returned and whose finish is on its way, at most this many times the concurrency: a slot
 * frees when its handler returns (the api allows as many RUNNING rows, docs/workers.md "claims").
 */
const FINISHING_PER_SLOT = 1;
/** Claims in flight at once at most while work flows (only one of them long-polls). */
const CLAIMS_IN_FLIGHT = 4;

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
  /** Every attempt's run-and-finish until its finish is answered (the drain waits for them). */
  private readonly attempts = new Set<Promise<void>>();
  private finishing = 0;
  private readonly finishes: WorkerFinishes;
  private readonly stopping = new AbortController();
  private node: NodeSettings | null = null;
  private registering: Promise<void> | null = null;
  private draining = false;
  private state: 'new' | 'started' | 'stopping' | 'stopped' = 'new';
  private timers: NodeJS.Timeout[] = [];
  private claimLoop: Promise<void> = Promise.resolve();
  /** Claims in flight, the slots they asked for, and whether the last one came back with work. */
  private readonly claimCalls = new Set<Promise<void>>();
  private asked = 0;
  private flowing = false;
  private claimFailures = 0;
  /** Wakes the claim loop (a slot freed, a claim answered, the drain began). */
  private wake: (() => void) | null = null;
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
    this.finishes = new WorkerFinishes(this.api, this.logger);
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
    this.wake?.();
    const grace = this.opts.drainGraceMs;
    this.logger.log(`draining: ${this.running.size} attempt(s) running, ${grace} ms grace`);
    await this.heartbeat();
    const deadline = Date.now() + grace;
    while (this.running.size > 0 && Date.now() < deadline) await sleep(Math.min(50, deadline - Date.now()));
    if (this.running.size > 0) this.logger.warn(`drain grace over: aborting ${this.running.size} attempt(s)`);
    for (const r of this.running.values()) r.run.abort('SHUTDOWN');
    await Promise.all([...this.attempts]);
    await this.claimLoop;
    await Promise.all([...this.claimCalls]);
    await Promise.all([...this.attempts]); // what the last claim handed back
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

  /**
   * Claims while there are free slots, until the drain starts. One claim long-polls; while claims come back with
   * work, up to CLAIMS_IN_FLIGHT go at once (the others do not wait), each for free slots no other one asked for:
   * a claim's round trip (HTTP and the api's claiming write) would otherwise bound the rate.
   */
  private async claimUntilDraining(): Promise<void> {
    while (!this.draining) {
      const slots = this.opts.concurrency;
      const free =
        Math.min(slots - this.running.size, (1 + FINISHING_PER_SLOT) * slots - this.running.size - this.finishing) -
        this.asked;
      const inFlight = this.claimCalls.size;
      if (free <= 0 || (inFlight > 0 && (!this.flowing || inFlight >= CLAIMS_IN_FLIGHT))) {
        await new Promise<void>((r) => (this.wake = r));
        this.wake = null;
        continue;
      }
      if (!this.node) await this.register().catch(() => undefined);
      const node = this.node;
      if (!node || this.draining) {
        if (!this.draining) await sleep(backoffOf(this.claimFailures++), this.stopping.signal).catch(() => undefined);
        continue;
      }
      const max = Math.min(free, CLAIM_MAX);
      const waitMs = inFlight > 0 ? 0 : Math.min(this.opts.claimWaitMs ?? node.maxClaimWaitMs, node.maxClaimWaitMs);
      this.asked += max;
      const call: Promise<void> = this.claimOnce(node.nodeId, max, waitMs).finally(() => {
        this.asked -= max;
        this.claimCalls.delete(call);
        this.wake?.();
      });
      this.claimCalls.add(call);
    }
  }

  /** One claim; begins what it brought. On failure, backs off before it resolves. Never throws. */
  private async claimOnce(nodeId: string, max: number, waitMs: number): Promise<void> {
    try {
      const a = await this.api.claims(
        nodeId,
        { max, waitMs },
        { tries: 1, ...LOOP_RETRY, signal: this.stopping.signal },
      );
      if (a.status === 200) {
        this.claimFailures = 0;
        const items = a.body.items ?? [];
        this.flowing = items.length > 0;
        for (const item of items) this.begin(item, nodeId);
        return;
      }
      this.flowing = false;
      if (a.status === 404 && !this.draining) await this.nodeLost(nodeId);
      else this.logger.warn(`claims: ${a.status} ${problemDetail(a.body)}`);
    } catch (err) {
      this.flowing = false;
      if (this.draining) return;
      this.logger.warn(`claims failed: ${(err as Error).message}`);
    }
    await sleep(backoffOf(this.claimFailures++), this.stopping.signal).catch(() => undefined);
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
    let finishing = false;
    const done = run
      .run()
      .then((end) => {
        // the slot frees now: the finish goes with others' (FinishBatcher) while the next attempt runs
        this.running.delete(item.instanceId);
        this.finishing++;
        finishing = true;
        this.wake?.();
        return this.finishes.finish(nodeId, item.instanceId, end.finish);
      })
      .catch((err: Error) => this.logger.error(`attempt ${item.instanceId}: ${err.message}`))
      .finally(() => {
        this.running.delete(item.instanceId);
        if (finishing) this.finishing--;
        this.attempts.delete(done);
        this.wake?.();
      });
    this.running.set(item.instanceId, { run, nodeId, done });
    this.attempts.add(done);
  }
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
