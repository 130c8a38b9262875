import { BeforeApplicationShutdown, Inject, Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { CLOCK, type Clock, WarnOnce } from '../../../common/index.js';
import { APP_CONFIG, type AppConfig, type NotificationSettings } from '../../../config/index.js';
import { AuditAction, AuditService } from '../../jobs/index.js';
import {
  channelTarget,
  type DueMessage,
  NotificationOutboxRepository,
  storedChannels,
  UnitOfWork,
} from '../../metadata/index.js';
import { PassLoop } from '../pass-loop.js';
import { NotificationSender } from './notification-sender.service.js';

/** How often due messages are looked for, ms (a message waits at most this long past its send_at). */
export const CLOSE_POLL_MS = 1_000;
/** Messages one pass closes at most; a longer backlog goes on in the next pass at once. */
const BATCH = 100;
const HOUR_MS = 3_600_000;

/** What one pass did: messages closed (by this closer), postponed by the rate limit, failed to close. */
export interface ClosePass {
  closed: number;
  postponed: number;
  errors: number;
}

/**
 * Closes due notifications (docs/notifications.md "Delivery"): each OPEN message whose `send_at` has come, in one
 * transaction, becomes SENT with one delivery row per channel and an audit row (`NOTIFICATION_SENT`); the
 * conditional close lets one of several closers win. An app past NOTIFY_MAX_PER_HOUR messages sent in the last
 * hour has its message postponed (send_at moved to when the window frees a place), never dropped. Runs on every
 * scheduler node.
 */
@Injectable()
export class NotificationCloser implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger(NotificationCloser.name);
  private readonly settings: NotificationSettings;
  private readonly ns: string;
  private stopping = false;
  private readonly loop: PassLoop;
  private readonly warned = new WarnOnce((m) => this.logger.warn(m));

  constructor(
    private readonly outbox: NotificationOutboxRepository,
    private readonly uow: UnitOfWork,
    private readonly audit: AuditService,
    private readonly sender: NotificationSender,
    @Inject(APP_CONFIG) config: AppConfig,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {
    this.settings = config.notifications;
    this.ns = config.namespace;
    // A full batch: more are due, go on at once. tick() reports its own errors.
    const pass = async () => {
      const p = await this.tick();
      return p.closed + p.postponed >= BATCH;
    };
    this.loop = new PassLoop(clock, CLOSE_POLL_MS, pass, (err) => this.logger.warn(err.message));
  }

  onApplicationBootstrap(): void {
    this.loop.start();
  }

  /** Stops the loop after the pass under way. */
  async beforeApplicationShutdown(): Promise<void> {
    this.stopping = true;
    await this.loop.stop();
  }

  /** One pass over up to 100 due messages; a message that cannot be closed is logged and the pass goes on. */
  async tick(): Promise<ClosePass> {
    const now = this.clock.now();
    const pass: ClosePass = { closed: 0, postponed: 0, errors: 0 };
    let due: DueMessage[];
    try {
      due = await this.outbox.dueMessages(this.ns, now, BATCH);
    } catch (err) {
      this.warned.warn(`notification closer: due messages not read: ${(err as Error).message}`, now);
      return pass;
    }
    const windows = new Map<string, { count: number; oldest: number | null }>();
    for (const m of due) {
      if (this.stopping) break;
      try {
        let w = windows.get(m.appId);
        if (!w) windows.set(m.appId, (w = await this.outbox.sentSince(this.ns, m.appId, now - HOUR_MS)));
        if (w.count >= this.settings.maxPerHour) {
          // The window frees a place an hour after its oldest message: the message waits until then, collecting.
          const at = Math.max((w.oldest ?? now) + HOUR_MS, now + CLOSE_POLL_MS);
          if (await this.outbox.postpone(m.id, at, now)) pass.postponed++;
          this.warned.warn(
            `app ${m.appId}: NOTIFY_MAX_PER_HOUR notifications sent in the last hour; more are postponed`,
            now,
          );
          continue;
        }
        if (await this.close(m.id, now)) {
          pass.closed++;
          w.count++;
          w.oldest ??= now;
        }
      } catch (err) {
        pass.errors++;
        this.warned.warn(`notification ${m.id} not closed: ${(err as Error).message}`, now);
      }
    }
    if (pass.closed > 0) this.sender.wake();
    return pass;
  }

  /** One transaction: the conditional close, its deliveries and its audit row. @returns whether this closer won. */
  private close(id: string, now: number): Promise<boolean> {
    return this.uow.run(async (em) => {
      const msg = await this.outbox.close(em, id, now);
      if (!msg) return false;
      const channels = Array.isArray(msg.channels) ? msg.channels.map((c) => c?.type ?? null) : [];
      const after = { rule: msg.ruleName, kind: msg.kind, title: msg.title, eventCount: msg.eventCount, channels };
      const target = { type: 'notification', id };
      await this.audit.record(em, msg.appId, AuditAction.NOTIFICATION_SENT, target, null, after);
      // A channel that cannot be sent was written FAILED (BAD_CHANNEL): its failure is recorded like a sender's.
      for (const [channelIndex, c] of storedChannels(msg.channels).entries()) {
        const { type, error } = channelTarget(c);
        if (error === null) continue;
        const failed = { notificationId: id, channelIndex, channel: type, attempts: 0, error };
        await this.audit.record(em, msg.appId, AuditAction.NOTIFICATION_FAILED, target, null, failed);
      }
      return true;
    });
  }
}
