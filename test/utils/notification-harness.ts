import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { AppConfig, NotificationSettings } from '../../src/config/index.js';
import { newId } from '../../src/common/index.js';
import { EgressPolicy, systemResolver } from '../../src/modules/egress/index.js';
import { AuditService } from '../../src/modules/jobs/index.js';
import {
  ApiClientRepository,
  AppSecretReader,
  AuditLogRepository,
  Notification,
  type NotificationChannel,
  NotificationDelivery,
  NotificationDeliveryRepository,
  NotificationOutboxRepository,
  UnitOfWork,
} from '../../src/modules/metadata/index.js';
import { NotificationCloser, NotificationSender } from '../../src/modules/notifications/index.js';
import { MetricsService } from '../../src/modules/observability/index.js';
import { FakeClock } from '../fakes/fake-clock.js';
import { sleep } from './async.js';
import { storeApiClient } from './callback-rows.js';
import { type DbKind, type MetadataDb, openMetadataDb } from './metadata-db.js';
import { TEST_SECRET_KEY, uniqueNamespace } from './test-node.js';

/** The test app's secret (stored sealed with TEST_SECRET_KEY). */
export const SECRET = 'n'.repeat(64);

/** Short settings for tests: sub-second timeouts and waits, a 3 s lease. */
export const SHORT: NotificationSettings = {
  maxPerHour: 60,
  retryDelaysMs: [200, 400, 800],
  smtpTimeoutMs: 500,
  senders: 8,
  perHost: 2,
  connectTimeoutMs: 300,
  readTimeoutMs: 500,
  leaseMs: 3_000,
  pollMs: 20,
  shutdownGraceMs: 300,
  evalMs: 50,
  scanMs: 200,
};

/** One request an {@link HttpSink} got. */
export interface SinkHit {
  deliveryId: string;
  headers: IncomingHttpHeaders;
  body: string;
}

/** A loopback HTTP receiver answering `status` (or holding the request open), on a chosen or free port. */
export interface HttpSink {
  url: string;
  port: number;
  hits: SinkHit[];
  close(): Promise<void>;
}

/** Starts an {@link HttpSink} on 127.0.0.1:`port` (0: a free one). */
export async function startSink(answer: () => number | 'hold' = () => 200, port = 0): Promise<HttpSink> {
  const hits: SinkHit[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const deliveryId = String(req.headers['x-tickwheel-delivery'] ?? '');
      hits.push({ deliveryId, headers: req.headers, body: Buffer.concat(chunks).toString() });
      const a = answer();
      if (a !== 'hold') res.writeHead(a).end('ok');
    });
  });
  await new Promise<void>((r) => server.listen(port, '127.0.0.1', r));
  const bound = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${bound}/hook?token=t0p`,
    port: bound,
    hits,
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}

/** What {@link notificationHarness} gives a test. */
export interface NotificationHarness {
  readonly db: MetadataDb;
  readonly ns: string;
  readonly appId: string;
  /** Stands still unless the test moves it ({@link advance}); due timers run at once in real time. */
  readonly clock: FakeClock;
  readonly deliveries: NotificationDeliveryRepository;
  /** A sender of the test's namespace on {@link clock}; `config` over SHORT settings and no SMTP. */
  sender(
    settings?: Partial<NotificationSettings>,
    config?: Partial<AppConfig>,
    metrics?: MetricsService,
  ): NotificationSender;
  /** A closer of the test's namespace, waking `sender` when it closed something (default: wakes nothing). */
  closer(settings?: Partial<NotificationSettings>, sender?: NotificationSender): NotificationCloser;
  /** An OPEN message of the test's app due now (or `patch.sendAt`) to `channels`. @returns its id. */
  message(channels: NotificationChannel[], patch?: Partial<Notification>): Promise<string>;
  /** The message's deliveries, in channel order. */
  deliveriesOf(notificationId: string): Promise<NotificationDelivery[]>;
  start(s: NotificationSender): void;
  /** Waits until every started sender is idle (no pass running or due, nothing in flight). */
  idle(timeoutMs?: number): Promise<void>;
  /** Moves the clock `ms` ahead and waits for {@link idle}. */
  advance(ms: number): Promise<void>;
  /** Audit actions written for the test's app, oldest first. */
  auditActions(): Promise<string[]>;
}

/**
 * Registers beforeEach/afterEach for a notification sender test on `kind` (docs/notifications.md "Delivery"): a
 * fresh namespace, app and hand-driven clock per test; its rows, senders and closers cleaned up after.
 */
export function notificationHarness(kind: DbKind): NotificationHarness {
  let db: MetadataDb;
  let ns: string;
  let appId: string;
  let clock: FakeClock;
  let pump: NodeJS.Timeout | undefined;
  let deliveries: NotificationDeliveryRepository;
  const senders: NotificationSender[] = [];
  const closers: NotificationCloser[] = [];
  const started = new Set<NotificationSender>();
  let passes = 0;

  const configOf = (settings: Partial<NotificationSettings>, extra: Partial<AppConfig> = {}) =>
    ({
      notifications: { ...SHORT, ...settings },
      namespace: ns,
      secretKeyHex: TEST_SECRET_KEY,
      smtpUrl: null,
      smtpFrom: 'tickwheel@localhost',
      ...extra,
    }) as unknown as AppConfig;
  const audit = (config: AppConfig) => new AuditService(new AuditLogRepository(db.ds), config, clock);

  function sender(
    settings: Partial<NotificationSettings> = {},
    extra: Partial<AppConfig> = {},
    metrics = new MetricsService(),
  ): NotificationSender {
    const config = configOf(settings, extra);
    const s = new NotificationSender(
      deliveries,
      new AppSecretReader(new ApiClientRepository(db.ds), config),
      metrics,
      audit(config),
      UnitOfWork.for(db.ds),
      EgressPolicy.fromSettings({ allow: '127.0.0.1' }),
      systemResolver,
      config,
      clock,
    );
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

  function closer(settings: Partial<NotificationSettings> = {}, wakes?: NotificationSender): NotificationCloser {
    const config = configOf(settings);
    const c = new NotificationCloser(
      new NotificationOutboxRepository(db.ds),
      UnitOfWork.for(db.ds),
      audit(config),
      wakes ?? ({ wake: () => undefined } as unknown as NotificationSender),
      config,
      clock,
    );
    closers.push(c);
    return c;
  }

  async function message(channels: NotificationChannel[], patch: Partial<Notification> = {}): Promise<string> {
    const now = clock.now();
    const id = newId();
    const row = {
      id,
      namespace: ns,
      appId,
      ruleId: null,
      ruleName: 'failures',
      kind: 'FINAL_FAILURE' as const,
      groupKey: 'job-a',
      openKey: id,
      state: 'OPEN' as const,
      title: 'job-a failed 3 times',
      events: [
        { at: new Date(now - 3000).toISOString(), jobCode: 'job-a', status: 'FAILED', error: 'boom 1' },
        { at: new Date(now - 2000).toISOString(), jobCode: 'job-a', status: 'FAILED', error: 'boom 2' },
      ],
      eventCount: 3,
      firstEventAt: now - 3000,
      lastEventAt: now - 1000,
      sendAt: now,
      channels,
      sentAt: null,
      createdAt: now - 3000,
      updatedAt: now - 1000,
      ...patch,
    };
    await db.ds.getRepository(Notification).insert(row);
    return id;
  }

  const deliveriesOf = (notificationId: string) =>
    db.ds.getRepository(NotificationDelivery).find({ where: { notificationId }, order: { channelIndex: 'ASC' } });

  async function idle(timeoutMs = 20_000): Promise<void> {
    const end = Date.now() + timeoutMs;
    const due = () => clock.nextAtMs !== null && clock.nextAtMs <= clock.now();
    do {
      await sleep(2);
      if (passes === 0 && !due() && [...started].every((s) => s.inFlight === 0)) return;
    } while (Date.now() < end);
    throw new Error(`the senders were not idle within ${timeoutMs} ms (${passes} passes, timers due: ${due()})`);
  }

  beforeEach(async () => {
    ns = uniqueNamespace('nt');
    appId = `ntapp-${ns}`.slice(0, 64);
    clock = new FakeClock(Date.now());
    pump = setInterval(() => clock.advanceTo(clock.now()), 1);
    db = await openMetadataDb(kind, ns);
    deliveries = new NotificationDeliveryRepository(db.ds);
    await storeApiClient(db.ds, appId, SECRET);
  });

  afterEach(async () => {
    await Promise.all(closers.splice(0).map((c) => c.beforeApplicationShutdown()));
    await Promise.all(senders.splice(0).map((s) => s.beforeApplicationShutdown()));
    started.clear();
    clearInterval(pump);
    await db.ds.query('DELETE FROM notification_delivery WHERE namespace = ?', [ns]);
    await db.ds.query('DELETE FROM notification WHERE namespace = ?', [ns]);
    await db.ds.query('DELETE FROM audit_log WHERE namespace = ?', [ns]);
    await db.ds.query('DELETE FROM api_client WHERE app_id = ?', [appId]);
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
    get clock() {
      return clock;
    },
    get deliveries() {
      return deliveries;
    },
    sender,
    closer,
    message,
    deliveriesOf,
    start: (s) => {
      started.add(s);
      s.onApplicationBootstrap();
    },
    idle,
    advance: async (ms) => {
      clock.setNow(clock.now() + ms);
      await idle();
    },
    auditActions: async () =>
      (
        (await db.ds.query('SELECT action FROM audit_log WHERE namespace = ? AND app_id = ? ORDER BY created_at', [
          ns,
          appId,
        ])) as Array<{ action: string }>
      ).map((r) => r.action),
  };
}
