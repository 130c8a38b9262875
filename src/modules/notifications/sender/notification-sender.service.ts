import { BeforeApplicationShutdown, Inject, Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { CLOCK, type Clock, cutText, newId, WarnOnce } from '../../../common/index.js';
import { APP_CONFIG, type AppConfig, type NotificationSettings } from '../../../config/index.js';
import { EGRESS_POLICY, EGRESS_RESOLVER, EgressPolicy, type EgressResolver } from '../../egress/index.js';
import { AuditAction, AuditService } from '../../jobs/index.js';
import {
  AppSecretReader,
  AppSigningError,
  callbackHostOf,
  type Notification,
  type NotificationDelivery,
  NotificationDeliveryRepository,
  UnitOfWork,
} from '../../metadata/index.js';
import { MetricsService, type NotificationChannelLabel } from '../../observability/index.js';
import { sendEmail } from '../channels/email-channel.js';
import { postChannel } from '../channels/http-channel.js';
import { chatBody, emailText, webhookBody } from '../channels/message-text.js';
import { type ChannelResult, classifyDelivery, type DeliveryOutcome } from './outcome.js';

/** How often the waiting gauge is refreshed, ms. */
const HOUSEKEEPING_MS = 5_000;
/** Candidates read per claim, as a multiple of the room left. */
const WINDOW_FACTOR = 2;
const CHANNELS: readonly string[] = ['webhook', 'chat', 'email'] satisfies NotificationChannelLabel[];

/** A stored row that can never be sent as it is: the delivery fails, the loop goes on. */
class BadDelivery extends Error {}

interface Flight {
  row: NotificationDelivery;
  message: Notification | null;
  host: string;
  abort: AbortController;
  done: Promise<void>;
}

/** The per-host unit of a delivery's share: host:port of its URL; every e-mail goes to the one SMTP server. */
export function deliveryHost(d: { channelType: string; target: string }): string {
  return d.channelType === 'email' ? 'smtp' : (callbackHostOf(d.target) ?? 'bad-url');
}

/**
 * The notification sender (docs/notifications.md "Delivery"): claims due `notification_delivery` rows of its
 * namespace with a fresh claim and a lease, sends each through its channel (webhook and chat through the egress
 * policy, e-mail through SMTP_URL), and writes the outcome under its claim. At most `senders` tries in flight on
 * this node, `perHost` per host:port. Runs on scheduler nodes, any number at once.
 */
@Injectable()
export class NotificationSender implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger(NotificationSender.name);
  private readonly settings: NotificationSettings;
  private readonly ns: string;
  private readonly flights = new Map<string, Flight>();
  private readonly perHost = new Map<string, number>();
  /** Tries in flight per app: one app's hanging receivers hold at most its share of this node's slots. */
  private readonly perApp = new Map<string, number>();
  private stopping = false;
  private kicked = false;
  private dropping = false;
  private cancelTick: (() => void) | null = null;
  private ticking: Promise<void> | null = null;
  private lastHousekeeping = -Infinity;
  private readonly warned = new WarnOnce((m) => this.logger.warn(m));

  constructor(
    private readonly deliveries: NotificationDeliveryRepository,
    private readonly secrets: AppSecretReader,
    private readonly metrics: MetricsService,
    private readonly audit: AuditService,
    private readonly uow: UnitOfWork,
    @Inject(EGRESS_POLICY) private readonly policy: EgressPolicy,
    @Inject(EGRESS_RESOLVER) private readonly resolver: EgressResolver,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {
    this.settings = config.notifications;
    this.ns = config.namespace;
  }

  onApplicationBootstrap(): void {
    this.schedule(0);
  }

  /** Tries in flight on this node now. */
  get inFlight(): number {
    return this.flights.size;
  }

  /**
   * Stops claiming, gives in-flight tries `shutdownGraceMs`, then aborts the rest and drops their claims (no try
   * spent), so another sender takes them at once.
   */
  async beforeApplicationShutdown(): Promise<void> {
    this.stopping = true;
    this.cancelTick?.();
    await this.ticking;
    const all = () => Promise.allSettled([...this.flights.values()].map((f) => f.done));
    let timer: NodeJS.Timeout | undefined;
    const grace = new Promise<void>((r) => (timer = setTimeout(r, this.settings.shutdownGraceMs)));
    await Promise.race([all(), grace]);
    clearTimeout(timer);
    if (this.flights.size === 0) return;
    this.dropping = true;
    for (const f of this.flights.values()) f.abort.abort(new Error('sender shutting down'));
    await all();
  }

  /** One pass: the gauge when due, then due deliveries as far as there is room. */
  async tick(): Promise<void> {
    const now = this.clock.now();
    try {
      if (now - this.lastHousekeeping >= HOUSEKEEPING_MS) {
        this.lastHousekeeping = now;
        this.metrics.notificationOutboxWaiting.set(await this.deliveries.waiting(this.ns));
      }
      await this.claimDue(now);
    } catch (err) {
      this.warned.warn(`notification sender pass failed: ${(err as Error).message}`, now);
    }
  }

  /** New deliveries were written (a message closed): look now rather than at the next poll. */
  wake(): void {
    this.kick();
  }

  private schedule(delayMs: number): void {
    if (this.stopping) return;
    this.cancelTick = this.clock.schedule(delayMs, () => {
      this.kicked = false;
      this.ticking = this.tick().finally(() => {
        this.ticking = null;
        this.schedule(this.kicked ? 0 : this.settings.pollMs);
      });
    });
  }

  /** A slot freed or work arrived: the next pass now; passes never overlap (during one, the next is asked for). */
  private kick(): void {
    if (this.stopping) return;
    if (this.ticking) {
      this.kicked = true;
      return;
    }
    this.cancelTick?.();
    this.schedule(0);
  }

  private room(): number {
    return this.stopping ? 0 : this.settings.senders - this.flights.size;
  }

  /** Claims what this node has room for, per host: a slow receiver or SMTP server holds only its own share. */
  private async claimDue(now: number): Promise<void> {
    if (this.room() <= 0) return;
    const share = this.appShare();
    const full = [...this.perApp].filter(([, n]) => n >= share).map(([app]) => app);
    const candidates = await this.deliveries.dueCandidates(this.ns, now, this.room() * WINDOW_FACTOR, full);
    const taken = new Map<string, number>();
    const takenByApp = new Map<string, number>();
    const ids: string[] = [];
    for (const c of candidates) {
      if (ids.length >= this.room()) break;
      const host = deliveryHost(c);
      const used = (this.perHost.get(host) ?? 0) + (taken.get(host) ?? 0);
      const usedByApp = (this.perApp.get(c.appId) ?? 0) + (takenByApp.get(c.appId) ?? 0);
      if (used >= this.settings.perHost || usedByApp >= share) continue;
      taken.set(host, (taken.get(host) ?? 0) + 1);
      takenByApp.set(c.appId, usedByApp + 1);
      ids.push(c.id);
    }
    for (const { row, message } of await this.deliveries.claim(ids, newId(), now, this.settings.leaseMs))
      this.launch(row, message);
  }

  /**
   * The most tries one app may have in flight on this node: half its slots, and always more than one host's share,
   * so one dead receiver of an app does not stop the app's other channels.
   */
  private appShare(): number {
    return Math.max(this.settings.perHost + 1, Math.ceil(this.settings.senders / 2));
  }

  private launch(row: NotificationDelivery, message: Notification | null): void {
    const host = deliveryHost(row);
    this.perHost.set(host, (this.perHost.get(host) ?? 0) + 1);
    this.perApp.set(row.appId, (this.perApp.get(row.appId) ?? 0) + 1);
    const flight: Flight = { row, message, host, abort: new AbortController(), done: Promise.resolve() };
    this.flights.set(row.id, flight);
    flight.done = this.run(flight)
      .catch((err: Error) => this.logger.warn(`notification delivery ${row.id}: ${err.message}`))
      .finally(() => {
        this.flights.delete(row.id);
        const n = (this.perHost.get(host) ?? 1) - 1;
        if (n > 0) this.perHost.set(host, n);
        else this.perHost.delete(host);
        const a = (this.perApp.get(row.appId) ?? 1) - 1;
        if (a > 0) this.perApp.set(row.appId, a);
        else this.perApp.delete(row.appId);
        this.kick();
      });
  }

  /** One try of a claimed row; a bad stored row fails that delivery only. */
  private async run(f: Flight): Promise<void> {
    const { row } = f;
    const claim = row.claim!;
    let result: ChannelResult;
    try {
      result = await this.send(f);
    } catch (err) {
      if (err instanceof BadDelivery) result = { kind: 'final', message: `BAD_DELIVERY: ${err.message}` };
      else {
        // Shutdown, or a database error before sending: the claim goes back, no try spent.
        await this.deliveries.settle(row.id, claim, {}, this.clock.now());
        if (!this.dropping) this.logger.warn(`notification delivery ${row.id} not sent: ${(err as Error).message}`);
        return;
      }
    }
    if (this.dropping) {
      await this.deliveries.settle(row.id, claim, {}, this.clock.now());
      return;
    }
    const counted = result.kind === 'final' && result.message.startsWith('BAD_DELIVERY') ? row.attempts : undefined;
    await this.record(
      f,
      classifyDelivery(result, row.attempts + 1, this.settings.retryDelaysMs, this.clock.now()),
      counted,
    );
  }

  /** Builds and sends the channel's message. @throws BadDelivery for a bad stored row (nothing was sent). */
  private async send(f: Flight): Promise<ChannelResult> {
    const { row, message: msg } = f;
    if (!msg) throw new BadDelivery(`notification ${row.notificationId} not found`);
    const signal = f.abort.signal;
    if (row.channelType === 'email') {
      if (this.config.smtpUrl === null) return { kind: 'final', message: 'SMTP_NOT_CONFIGURED: SMTP_URL is not set' };
      const to = row.target.split(',').filter((a) => a !== '');
      const smtp = { url: this.config.smtpUrl, from: this.config.smtpFrom, timeoutMs: this.settings.smtpTimeoutMs };
      return sendEmail({ to, ...emailText(msg), deliveryId: row.id }, smtp, signal);
    }
    if (row.channelType !== 'webhook' && row.channelType !== 'chat')
      throw new BadDelivery(`unknown channel type ${row.channelType}`);
    const app = await this.secrets.read(row.appId).catch((err: Error) => {
      throw err instanceof AppSigningError ? new BadDelivery(err.message) : err;
    });
    let url: URL, body: string, policy: EgressPolicy;
    try {
      url = new URL(row.target);
      body = JSON.stringify(row.channelType === 'webhook' ? webhookBody(msg, row) : chatBody(msg));
      policy = this.policy.narrowedTo(app.egressAllow);
    } catch (err) {
      throw new BadDelivery((err as Error).message);
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new BadDelivery(`not an http(s) URL`);
    const secret = row.channelType === 'webhook' ? app.secret : null;
    const traceparent = msg.events.findLast((e) => e.traceparent)?.traceparent ?? null;
    const post = { url: url.href, body, deliveryId: row.id, secret, now: this.clock.now(), traceparent };
    const { connectTimeoutMs, readTimeoutMs } = this.settings;
    return postChannel(post, { policy, resolver: this.resolver, connectTimeoutMs, readTimeoutMs }, signal);
  }

  /** Writes the outcome under the claim; `attempts` overrides the count (a bad stored row spends no try). */
  private async record(f: Flight, o: DeliveryOutcome, attempts = f.row.attempts + 1): Promise<void> {
    const { row } = f;
    const now = this.clock.now();
    const common = { attempts, lastStatusCode: o.statusCode, lastError: cut(o.error) };
    const patch =
      o.outcome === 'delivered'
        ? { ...common, state: 'DELIVERED' as const, deliveredAt: now, lastError: null }
        : o.outcome === 'retry'
          ? { ...common, state: 'RETRYING' as const, nextAttemptAt: now + (o.waitMs ?? 0) }
          : { ...common, state: 'FAILED' as const };
    if (!(await this.deliveries.settle(row.id, row.claim!, patch, now))) return;
    if (CHANNELS.includes(row.channelType))
      this.metrics.notificationDeliveries.inc({ channel: row.channelType, outcome: o.outcome });
    if (o.outcome !== 'failed') return;
    this.logger.warn(`notification delivery ${row.id} (app ${row.appId}, ${row.channelType}) failed: ${o.error}`);
    const after = { notificationId: row.notificationId, channel: row.channelType, attempts, error: cut(o.error) };
    await this.uow
      .run((em) =>
        this.audit.record(
          em,
          row.appId,
          AuditAction.NOTIFICATION_FAILED,
          { type: 'notification_delivery', id: row.id },
          null,
          after,
        ),
      )
      .catch((err: Error) =>
        this.logger.warn(`notification delivery ${row.id}: audit row not written: ${err.message}`),
      );
  }
}

function cut(s: string | null): string | null {
  return s === null ? null : cutText(s, 1024);
}
