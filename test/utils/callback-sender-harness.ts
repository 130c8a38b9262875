import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AppConfig, CallbackSettings } from '../../src/config/index.js';
import { CallbackPost, CallbackSender } from '../../src/modules/callbacks/index.js';
import { EgressPolicy, systemResolver } from '../../src/modules/egress/index.js';
import {
  ApiClientRepository,
  AppSecretReader,
  CallbackDelivery,
  CallbackDeliveryRepository,
  CallbackHost,
  CallbackHostDeliveries,
  CallbackHostRepository,
  JobInstance,
} from '../../src/modules/metadata/index.js';
import { MetricsService } from '../../src/modules/observability/index.js';
import { Tracing } from '../../src/modules/tracing/index.js';
import { FakeClock } from '../fakes/fake-clock.js';
import { sleep } from './async.js';
import { type CallbackReceiver, startCallbackReceiver } from './callback-receiver.js';
import { deleteCallbackRows, finishedWithDelivery, storeApiClient } from './callback-rows.js';
import { type DbKind, type MetadataDb, openMetadataDb } from './metadata-db.js';
import { TEST_SECRET_KEY, uniqueNamespace } from './test-node.js';

/** The test app's secret (the harness stores it sealed with TEST_SECRET_KEY). */
export const SECRET = 'c'.repeat(64);

/** Short sender settings for tests: 8 slots, 2 per host, sub-second timeouts and waits. */
export const SHORT: CallbackSettings = {
  senders: 8,
  perHost: 2,
  connectTimeoutMs: 300,
  readTimeoutMs: 500,
  retryDelaysMs: [200, 400, 800],
  hostDownAfter: 3,
  maxAgeMs: 3_600_000,
  leaseMs: 3_000,
  pollMs: 20,
  shutdownGraceMs: 300,
};

/** What {@link senderHarness} gives a test: the current test's database, namespace, app, clock and helpers. */
export interface SenderHarness {
  readonly db: MetadataDb;
  readonly ns: string;
  readonly appId: string;
  readonly deliveries: CallbackDeliveryRepository;
  readonly hosts: CallbackHostRepository;
  /**
   * The senders' clock: it stands still unless the test moves it ({@link advance}), so a retry, a probe, a lease or
   * housekeeping comes due exactly when the test says. Due callbacks run at once in real time.
   */
  readonly clock: FakeClock;
  /** A CallbackSender of the test's namespace on {@link clock}, SHORT settings and `settings` over them. */
  sender(settings?: Partial<CallbackSettings>, metrics?: MetricsService): CallbackSender;
  /** A loopback receiver (closed after the test). */
  receiver(...args: Parameters<typeof startCallbackReceiver>): Promise<CallbackReceiver>;
  /**
   * A finished instance of `app` (default: the test's app) with its delivery to `url`, final at `finalAt` (default:
   * the clock's now).
   */
  delivery(url: string, patch?: Partial<JobInstance>, finalAt?: number, app?: string): Promise<string>;
  /** One more app of the test (its client stored, removed after the test). @returns its app id. */
  otherApp(name: string): Promise<string>;
  row(id: string): Promise<CallbackDelivery>;
  /** The `callback_host` row of `app` (default: the test's app) and `r`'s host:port. */
  hostRow(r: CallbackReceiver, app?: string): Promise<CallbackHost | null>;
  /** Starts `s`'s loop (its first pass is due now). */
  start(s: CallbackSender): void;
  /**
   * Waits until every started sender is idle: no pass running or due, no try in flight (every outcome written).
   * A try in flight takes real time (the receiver answers, or the connect or read timeout ends it). @throws after
   * `timeoutMs` of real time.
   */
  idle(timeoutMs?: number): Promise<void>;
  /**
   * Moves the clock `ms` ahead, in steps of `stepMs` (default: one step), waiting for {@link idle} after each: what
   * comes due within the span runs, in order, one step at a time.
   */
  advance(ms: number, stepMs?: number): Promise<void>;
}

/**
 * Registers beforeEach/afterEach for a callback sender test on `kind` (docs/callbacks.md "Sender"): a fresh
 * namespace, app and hand-driven clock per test, its rows and the senders and receivers it made cleaned up after.
 */
export function senderHarness(kind: DbKind): SenderHarness {
  let db: MetadataDb;
  let ns: string;
  let appId: string;
  let deliveries: CallbackDeliveryRepository;
  let hosts: CallbackHostRepository;
  let clock: FakeClock;
  let pump: NodeJS.Timeout | undefined;
  const senders: CallbackSender[] = [];
  const started = new Set<CallbackSender>();
  const receivers: CallbackReceiver[] = [];
  let passes = 0;

  function sender(settings: Partial<CallbackSettings> = {}, metrics = new MetricsService()): CallbackSender {
    const config = {
      callbacks: { ...SHORT, ...settings },
      namespace: ns,
      secretKeyHex: TEST_SECRET_KEY,
      dataDir: mkdtempSync(join(tmpdir(), 'tw-cb-')),
    } as unknown as AppConfig;
    const tracing = new Tracing({ tracing: { tracesUrl: null, serviceName: 'test' } });
    const s = new CallbackSender(
      deliveries,
      hosts,
      new CallbackHostDeliveries(db.ds),
      db.instances.reads,
      new AppSecretReader(new ApiClientRepository(db.ds), config),
      metrics,
      new CallbackPost(EgressPolicy.fromSettings({ allow: '127.0.0.1' }), systemResolver, config, clock, tracing),
      config,
      clock,
    );
    // Counts the passes under way: idle() must not see a sender between two passes as idle.
    const pass = s.tick.bind(s);
    s.tick = async () => {
      passes++;
      try {
        await pass();
      } finally {
        passes--;
      }
    };
    senders.push(s);
    return s;
  }

  async function receiver(...args: Parameters<typeof startCallbackReceiver>): Promise<CallbackReceiver> {
    const r = await startCallbackReceiver(...args);
    receivers.push(r);
    return r;
  }

  const delivery = (url: string, patch: Partial<JobInstance> = {}, finalAt = clock.now(), app = appId) =>
    finishedWithDelivery(db.ds, { ns, appId: app, url }, patch, finalAt);
  const otherApp = async (name: string) => {
    const id = `${appId}-${name}`.slice(0, 64);
    await storeApiClient(db.ds, id, SECRET);
    return id;
  };
  const row = async (id: string) => (await db.ds.getRepository(CallbackDelivery).findOneBy({ id }))!;
  const hostRow = (r: CallbackReceiver, app = appId) =>
    db.ds.getRepository(CallbackHost).findOneBy({ namespace: ns, appId: app, host: new URL(r.url).host });
  const start = (s: CallbackSender) => {
    started.add(s);
    s.onApplicationBootstrap();
  };

  async function idle(timeoutMs = 20_000): Promise<void> {
    const end = Date.now() + timeoutMs;
    // Checked between macrotasks: a pass's end and the scheduling of the next one happen in one microtask chain.
    const due = () => clock.nextAtMs !== null && clock.nextAtMs <= clock.now();
    do {
      await sleep(2);
      if (passes === 0 && !due() && [...started].every((s) => s.inFlight === 0)) return;
    } while (Date.now() < end);
    throw new Error(`the senders were not idle within ${timeoutMs} ms (${passes} passes, timers due: ${due()})`);
  }

  async function advance(ms: number, stepMs = ms): Promise<void> {
    for (let moved = 0; moved < ms; moved += stepMs) {
      clock.setNow(clock.now() + Math.min(stepMs, ms - moved));
      await idle();
    }
  }

  beforeEach(async () => {
    ns = uniqueNamespace('cb');
    appId = `cbapp-${ns}`.slice(0, 64);
    clock = new FakeClock(Date.now());
    // Runs what is due on the clock promptly: a pass the sender asks for now, a timer the test moved time past.
    pump = setInterval(() => clock.advanceTo(clock.now()), 1);
    db = await openMetadataDb(kind, ns);
    deliveries = new CallbackDeliveryRepository(db.ds);
    hosts = new CallbackHostRepository(db.ds);
    await deleteCallbackRows(db.ds, ns);
    await storeApiClient(db.ds, appId, SECRET);
  });

  afterEach(async () => {
    await Promise.all(senders.splice(0).map((s) => s.beforeApplicationShutdown()));
    started.clear();
    clearInterval(pump);
    await Promise.all(receivers.splice(0).map((r) => r.close()));
    await deleteCallbackRows(db.ds, ns);
    await db.ds.query('DELETE FROM api_client WHERE app_id = ? OR app_id LIKE ?', [appId, `${appId}-%`]);
    await db.close();
  });

  return {
    get db() {
      return db;
    },
    get ns() {
      return ns;
    },
    get appId() {
      return appId;
    },
    get deliveries() {
      return deliveries;
    },
    get hosts() {
      return hosts;
    },
    get clock() {
      return clock;
    },
    sender,
    receiver,
    delivery,
    otherApp,
    row,
    hostRow,
    start,
    idle,
    advance,
  };
}
