import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SystemClock } from '../../src/common/index.js';
import type { AppConfig, CallbackSettings } from '../../src/config/index.js';
import { CallbackSender } from '../../src/modules/callbacks/index.js';
import { EgressPolicy, systemResolver } from '../../src/modules/egress/index.js';
import {
  ApiClient,
  ApiClientRepository,
  AppSecretReader,
  CallbackDelivery,
  CallbackDeliveryRepository,
  CallbackHost,
  CallbackHostRepository,
  JobInstance,
  JobInstanceStatus,
  newJobInstance,
  SecretBox,
  TriggerSource,
} from '../../src/modules/metadata/index.js';
import { MetricsService } from '../../src/modules/observability/index.js';
import { type CallbackReceiver, startCallbackReceiver } from './callback-receiver.js';
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

/** What {@link senderHarness} gives a test: the current test's database, namespace, app and helpers. */
export interface SenderHarness {
  readonly db: MetadataDb;
  readonly ns: string;
  readonly appId: string;
  readonly deliveries: CallbackDeliveryRepository;
  readonly hosts: CallbackHostRepository;
  /** A CallbackSender of the test's namespace with SHORT settings and `settings` over them (stopped after). */
  sender(settings?: Partial<CallbackSettings>, metrics?: MetricsService): CallbackSender;
  /** A loopback receiver (closed after the test). */
  receiver(...args: Parameters<typeof startCallbackReceiver>): Promise<CallbackReceiver>;
  /** A finished instance of the test's app with its delivery to `url`; returns the deliveryId. */
  delivery(url: string, patch?: Partial<JobInstance>, finalAt?: number): Promise<string>;
  row(id: string): Promise<CallbackDelivery>;
  hostRow(r: CallbackReceiver): Promise<CallbackHost | null>;
  start(s: CallbackSender): void;
}

/**
 * Registers beforeEach/afterEach for a callback sender test on `kind` (docs/callbacks.md "Sender"): a fresh
 * namespace and app per test, its rows and the senders and receivers it made cleaned up after.
 */
export function senderHarness(kind: DbKind): SenderHarness {
  let db: MetadataDb;
  let ns: string;
  let appId: string;
  let deliveries: CallbackDeliveryRepository;
  let hosts: CallbackHostRepository;
  const senders: CallbackSender[] = [];
  const receivers: CallbackReceiver[] = [];

  function sender(settings: Partial<CallbackSettings> = {}, metrics = new MetricsService()): CallbackSender {
    const config = {
      callbacks: { ...SHORT, ...settings },
      namespace: ns,
      secretKeyHex: TEST_SECRET_KEY,
      dataDir: mkdtempSync(join(tmpdir(), 'tw-cb-')),
    } as unknown as AppConfig;
    const s = new CallbackSender(
      deliveries,
      hosts,
      db.instances.reads,
      new AppSecretReader(new ApiClientRepository(db.ds), config),
      metrics,
      EgressPolicy.fromSettings({ allow: '127.0.0.1' }),
      systemResolver,
      config,
      new SystemClock(),
    );
    senders.push(s);
    return s;
  }

  async function receiver(...args: Parameters<typeof startCallbackReceiver>): Promise<CallbackReceiver> {
    const r = await startCallbackReceiver(...args);
    receivers.push(r);
    return r;
  }

  /** A finished instance of the test's app with its delivery to `url`; returns the deliveryId. */
  async function delivery(url: string, patch: Partial<JobInstance> = {}, finalAt = Date.now()): Promise<string> {
    const fresh = { namespace: ns, appId, handler: 'h', fireTime: 1, triggerSource: TriggerSource.API, dueAt: 1 };
    const row = Object.assign(newJobInstance(fresh, 1), {
      status: JobInstanceStatus.SUCCESS,
      startedAt: 1_000,
      finishedAt: 1_250,
      result: { ok: 1 },
      callbackUrl: url,
      ...patch,
    });
    await db.ds.getRepository(JobInstance).save(row);
    await db.ds.transaction((em) => deliveries.enqueueFinal(em, [row], finalAt));
    return (await deliveries.findByInstances([row.id])).get(row.id)!.id;
  }

  const row = async (id: string) => (await db.ds.getRepository(CallbackDelivery).findOneBy({ id }))!;
  const hostRow = (r: CallbackReceiver) => db.ds.getRepository(CallbackHost).findOneBy({ host: new URL(r.url).host });
  const start = (s: CallbackSender) => s.onApplicationBootstrap();

  beforeEach(async () => {
    ns = uniqueNamespace('cb');
    appId = `cbapp-${ns}`.slice(0, 64);
    db = await openMetadataDb(kind, ns);
    deliveries = new CallbackDeliveryRepository(db.ds);
    hosts = new CallbackHostRepository(db.ds);
    await db.ds.query('DELETE FROM callback_delivery WHERE namespace = ?', [ns]);
    await db.ds.query('DELETE FROM callback_host WHERE namespace = ?', [ns]);
    const client = Object.assign(new ApiClient(), {
      appId,
      secretEnc: new SecretBox(TEST_SECRET_KEY).seal(SECRET),
      enabled: true,
      scopes: [],
      egressAllow: null,
      createdAt: 1,
      updatedAt: 1,
    });
    await db.ds.getRepository(ApiClient).save(client);
  });

  afterEach(async () => {
    await Promise.all(senders.splice(0).map((s) => s.beforeApplicationShutdown()));
    await Promise.all(receivers.splice(0).map((r) => r.close()));
    await db.ds.query('DELETE FROM callback_delivery WHERE namespace = ?', [ns]);
    await db.ds.query('DELETE FROM callback_host WHERE namespace = ?', [ns]);
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
    get deliveries() {
      return deliveries;
    },
    get hosts() {
      return hosts;
    },
    sender,
    receiver,
    delivery,
    row,
    hostRow,
    start,
  };
}
