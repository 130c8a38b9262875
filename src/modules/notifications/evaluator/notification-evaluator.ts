import { BeforeApplicationShutdown, Inject, Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { CLOCK, type Clock, newId } from '../../../common/index.js';
import {
  INSTANCE_FINAL,
  isTransientDbError,
  NotificationEventRepository,
  NotificationInstances,
  NotificationMessageRepository,
  NotificationRuleRepository,
  type NotifiedRun,
  UnitOfWork,
} from '../../metadata/index.js';
import { NOTIFY_CONFIG, type NotifyConfig } from '../notify-config.js';
import { outputsOf } from './event-outputs.js';
import { hasInstanceRule } from './match.js';
import { PassLoop } from '../pass-loop.js';

/** Events claimed per pass. */
const BATCH = 200;
/** How long a claim holds its events: a pass that dies leaves them to the next after this. */
const LEASE_MS = 30_000;
/** Processed events are kept this long, so a scan cannot write the same event again (its dedup horizon). */
const KEEP_MS = 3 * 86_400_000;
const PURGE_EVERY_MS = 60_000;
/** Sent messages (and their settled deliveries) are kept this long for GET /api/notifications. */
export const MESSAGE_KEEP_MS = 30 * 86_400_000;

class LostClaim extends Error {}

/**
 * Turns notification events into messages (docs/notifications.md "Events", "Quiet period and grouping"). Runs on
 * every scheduler pod: each pass claims a batch of unprocessed events (a fresh claim id, a lease), and each event's
 * messages are written in one transaction with its processed mark, guarded by the claim, so an event counts once
 * in its message even when two pods or a restart overlap. An event that cannot be read is logged and dropped; a
 * database error leaves the rest of the batch to the next claim.
 */
@Injectable()
export class NotificationEvaluator implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger(NotificationEvaluator.name);
  private readonly loop: PassLoop;
  private lastPurge = 0;

  constructor(
    private readonly events: NotificationEventRepository,
    private readonly rules: NotificationRuleRepository,
    private readonly messages: NotificationMessageRepository,
    private readonly runs: NotificationInstances,
    private readonly uow: UnitOfWork,
    @Inject(NOTIFY_CONFIG) private readonly config: NotifyConfig,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {
    const warn = (err: Error) => this.logger.warn(`notification evaluator pass failed: ${err.message}`);
    this.loop = new PassLoop(clock, config.evalMs, async () => (await this.pass()) === BATCH, warn);
  }

  onApplicationBootstrap(): void {
    this.loop.start();
  }

  async beforeApplicationShutdown(): Promise<void> {
    await this.loop.stop();
  }

  /** One pass: claims up to BATCH events and evaluates them. @returns how many it claimed. */
  async pass(): Promise<number> {
    const now = this.clock.now();
    const ns = this.config.namespace;
    if (now - this.lastPurge >= PURGE_EVERY_MS) {
      this.lastPurge = now;
      await this.events.purgeProcessed(ns, now - KEEP_MS, 1000);
      await this.messages.purgeSent(ns, now - MESSAGE_KEEP_MS, 500);
    }
    const claim = newId();
    const batch = await this.events.claim(ns, claim, now, LEASE_MS, BATCH);
    if (batch.length === 0) return 0;
    const rules = await this.rules.enabledFor(ns, [...new Set(batch.map((e) => e.appId))]);
    // A final state of an app no instance rule applies to yields nothing: those are marked in one statement, so
    // job runs of apps without rules cost one write each, not a transaction each.
    const inert = batch.filter((e) => e.kind === INSTANCE_FINAL && !hasInstanceRule(rules, e.appId)).map((e) => e.id);
    const marked = inert.length > 0 ? await this.events.markAllProcessed(inert, claim, now) : 0;
    if (marked < inert.length) this.logger.warn(`${inert.length - marked} notification events lost their claim`);
    const rest = batch.filter((e) => !inert.includes(e.id));
    const ids = rest.flatMap((e) => (e.instanceId ? [e.instanceId] : []));
    const runs = new Map<string, NotifiedRun>((await this.runs.byIds(ids)).map((r) => [r.id, r]));
    const outcomes = (jobId: string, fireTime: number, limit: number) => this.runs.outcomesUpTo(jobId, fireTime, limit);
    for (const ev of rest) {
      try {
        const run = ev.instanceId ? (runs.get(ev.instanceId) ?? null) : null;
        const out = await outputsOf(ev, rules, run, outcomes, now);
        await this.uow.run(async (em) => {
          for (const m of out.messages) await this.messages.add(em, m);
          if (out.followUps.length > 0) await this.events.insert(out.followUps, now, em);
          if (!(await this.events.markProcessed(em, ev.id, claim, now))) throw new LostClaim();
        });
      } catch (err) {
        if (err instanceof LostClaim) continue;
        if (isTransientDbError(err)) throw err;
        this.logger.warn(`notification event ${ev.id} (${ev.kind}) dropped: ${(err as Error).message}`);
        await this.uow.run((em) => this.events.markProcessed(em, ev.id, claim, now));
      }
    }
    return batch.length;
  }
}
