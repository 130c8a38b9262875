import { BeforeApplicationShutdown, Inject, Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { CLOCK, type Clock, WarnOnce } from '../../../common/index.js';
import { UnadvertisedWaits } from '../../dispatch/index.js';
import {
  type NewNotificationEvent,
  NotificationEventRepository,
  NotificationInstances,
  NotificationKind as K,
  type NotificationRule,
  NotificationRuleRepository,
  type NotifiedRun,
  JobInstanceStatus as S,
} from '../../metadata/index.js';
import { LeaderElectionService } from '../../trigger/index.js';
import { ScanEvent } from '../evaluator/event-outputs.js';
import { admits, rulesOfApp } from '../evaluator/match.js';
import { PassLoop } from '../pass-loop.js';
import { NOTIFY_CONFIG, type NotifyConfig } from '../notify-config.js';
import { deadlineOf, deadlineSpan } from '../rules/rule-input.js';

/** Rows one status read of a scan takes: a bound on each pass's work. */
const SCAN_ROWS = 1000;
const DAY_MS = 86_400_000;
/** Statuses of a run that has not started; a WAITING run waits for its job's concurrency or its overlap policy. */
const NOT_STARTED = [S.PENDING, S.WAITING, S.DISPATCHED];
const UNFINISHED = [S.PENDING, S.WAITING, S.DISPATCHED, S.RUNNING];
const SCANNED = [K.DEADLINE, K.LATE_START, K.HANDLER_UNAVAILABLE];

/**
 * The leader's scans for what no final state reports (docs/notifications.md "Events"): runs past a DEADLINE, runs
 * not started a LATE_START threshold after their fire, tasks waiting for a handler nobody advertises, callback
 * hosts an app's callbacks fail on. Each writes events with dedup keys (INSERT IGNORE), so a scan repeated, by a
 * new leader too, writes nothing twice. Each part fails alone (a warning) and the next pass runs anyway.
 */
@Injectable()
export class NotificationScans implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger(NotificationScans.name);
  private readonly loop: PassLoop;
  private readonly warned = new WarnOnce((m) => this.logger.warn(m));

  constructor(
    private readonly rules: NotificationRuleRepository,
    private readonly events: NotificationEventRepository,
    private readonly runs: NotificationInstances,
    private readonly waits: UnadvertisedWaits,
    private readonly leader: LeaderElectionService,
    @Inject(NOTIFY_CONFIG) private readonly config: NotifyConfig,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {
    const warn = (err: Error) => this.logger.warn(`notification scan failed: ${err.message}`);
    const pass = async () => {
      if (this.leader.isLeader) await this.pass();
    };
    this.loop = new PassLoop(clock, config.scanMs, pass, warn);
  }

  onApplicationBootstrap(): void {
    this.loop.start(this.config.scanMs);
  }

  async beforeApplicationShutdown(): Promise<void> {
    await this.loop.stop();
  }

  /** One scan of every kind. @returns the events it wrote. */
  async pass(): Promise<number> {
    const now = this.clock.now();
    const rules = await this.rules.enabledOfKinds(this.config.namespace, SCANNED);
    let written = 0;
    const part = async (name: string, fn: () => Promise<NewNotificationEvent[]>) => {
      try {
        written += await this.events.insert(await fn(), now);
      } catch (err) {
        this.warned.warn(`notification scan of ${name} failed: ${(err as Error).message}`, now);
      }
    };
    const of = (kind: K) => rules.filter((r) => r.kind === kind);
    if (of(K.DEADLINE).length > 0) await part('deadlines', () => this.deadlines(rules, now));
    if (of(K.LATE_START).length > 0) await part('late starts', () => this.lateStarts(rules, now));
    if (of(K.HANDLER_UNAVAILABLE).length > 0) await part('handlers', () => this.handlerWaits(rules, now));
    await part('callback hosts', () => this.downHosts(now));
    return written;
  }

  private async deadlines(rules: NotificationRule[], now: number): Promise<NewNotificationEvent[]> {
    const span = Math.max(...rules.filter((r) => r.kind === K.DEADLINE).map((r) => deadlineSpan(r.params)));
    const runs = await this.read(UNFINISHED, now - span - DAY_MS, now);
    return this.eventsFor(rules, runs, K.DEADLINE, now, (rule, run) => {
      const deadline = deadlineOf(rule.params, run.fireTime);
      return deadline !== null && deadline < now ? { deadline } : null;
    });
  }

  private async lateStarts(rules: NotificationRule[], now: number): Promise<NewNotificationEvent[]> {
    const least = Math.min(...rules.filter((r) => r.kind === K.LATE_START).map((r) => Number(r.params.thresholdMs)));
    const runs = await this.read(NOT_STARTED, now - DAY_MS, now - least);
    return this.eventsFor(rules, runs, K.LATE_START, now, (rule, run) =>
      run.fireTime + Number(rule.params.thresholdMs) < now ? {} : null,
    );
  }

  private async handlerWaits(rules: NotificationRule[], now: number): Promise<NewNotificationEvent[]> {
    const out: NewNotificationEvent[] = [];
    for (const w of await this.waits.scan(this.config.namespace, now)) {
      const applied = rulesOfApp(rules, w.appId).filter((r) => r.kind === K.HANDLER_UNAVAILABLE);
      for (const rule of applied.filter((r) => r.handler === null || r.handler === w.handler)) {
        if (now - w.oldestCreatedAt <= Number(rule.params.thresholdMs)) continue;
        out.push({
          namespace: this.config.namespace,
          appId: w.appId,
          kind: ScanEvent.HANDLER_WAIT,
          dedupKey: `handler:${rule.id}:${w.appId}:${w.oldestCreatedAt}:${w.handler}`,
          ruleId: rule.id,
          data: { handler: w.handler, count: w.count, oldestCreatedAt: w.oldestCreatedAt },
          at: now,
        });
      }
    }
    return out;
  }

  private async downHosts(now: number): Promise<NewNotificationEvent[]> {
    return (await this.events.downHosts(this.config.namespace, SCAN_ROWS)).map((h) => ({
      namespace: this.config.namespace,
      appId: h.appId,
      kind: ScanEvent.HOST_DOWN,
      dedupKey: `host:${h.appId}:${h.downSince}:${h.host}`,
      data: { host: h.host, failures: h.failures, lastError: h.lastError, downSince: h.downSince },
      at: now,
    }));
  }

  private async read(statuses: readonly S[], from: number, to: number): Promise<NotifiedRun[]> {
    const out: NotifiedRun[] = [];
    for (const s of statuses) out.push(...(await this.runs.jobRunsIn(this.config.namespace, s, from, to, SCAN_ROWS)));
    return out;
  }

  /** One event per (rule, run) for which `due` says so, over the rules of `kind` that apply to each run's app. */
  private eventsFor(
    rules: NotificationRule[],
    runs: NotifiedRun[],
    kind: typeof K.DEADLINE | typeof K.LATE_START,
    now: number,
    due: (rule: NotificationRule, run: NotifiedRun) => Record<string, unknown> | null,
  ): NewNotificationEvent[] {
    const out: NewNotificationEvent[] = [];
    const prefix = kind === K.DEADLINE ? 'deadline' : 'late';
    for (const run of runs) {
      for (const rule of rulesOfApp(rules, run.appId)) {
        if (rule.kind !== kind || rule.id === null || !admits(rule, run)) continue;
        const data = due(rule as NotificationRule, run);
        if (data === null) continue;
        out.push({
          namespace: this.config.namespace,
          appId: run.appId,
          kind: kind === K.DEADLINE ? ScanEvent.DEADLINE : ScanEvent.LATE_START,
          dedupKey: `${prefix}:${rule.id}:${run.id}`,
          instanceId: run.id,
          ruleId: rule.id,
          data,
          at: now,
        });
      }
    }
    return out;
  }
}
