import { Inject, Injectable } from '@nestjs/common';
import {
  CLOCK,
  type Clock,
  ConflictError,
  ErrorCode,
  newId,
  NotFoundError,
  SchedulerError,
  ValidationError,
} from '../../../common/index.js';
import { AuditAction, AuditService, CallbackUrlCheck, type Caller, namedApp } from '../../jobs/index.js';
import {
  ApiClientRepository,
  NAMESPACE_DEFAULT,
  type NotificationChannel,
  NotificationMessageRepository,
  NotificationRule,
  NotificationRuleRepository,
  type Tx,
  UnitOfWork,
} from '../../metadata/index.js';
import { NOTIFY_CONFIG, type NotifyConfig } from '../notify-config.js';
import { checkChannels, DEFAULT_QUIET_MS, type RuleInput, ruleParams } from './rule-input.js';

const HOUR_MS = 3_600_000;

/** Most rules one app (or the namespace defaults) may hold. */
export const MAX_NOTIFICATION_RULES = 50;

const target = (owner: string, name: string) => ({ type: 'notification_rule', id: `${owner}/${name}` });

/** A channel as audit rows keep it: a URL without its query (it may carry a token), e-mail addresses as given. */
function auditedChannel(c: NotificationChannel): unknown {
  if (c.type === 'email') return c;
  const u = new URL(c.url);
  return { type: c.type, url: `${u.origin}${u.pathname}${u.search ? '?…' : ''}` };
}

const audited = (r: NotificationRule) => ({ ...r, channels: r.channels.map(auditedChannel) });

/**
 * An app's notification rules and, for an admin, the namespace defaults (`appId` '*'), docs/notifications.md
 * "Rules". Every change is audited in its own transaction; channel URLs pass the egress policy of the owner.
 */
@Injectable()
export class NotificationRules {
  constructor(
    private readonly rules: NotificationRuleRepository,
    private readonly clients: ApiClientRepository,
    private readonly messages: NotificationMessageRepository,
    private readonly urls: CallbackUrlCheck,
    private readonly audit: AuditService,
    private readonly uow: UnitOfWork,
    @Inject(NOTIFY_CONFIG) private readonly config: NotifyConfig,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  /**
   * Creates rule `input.name` (`replace` false) or creates or replaces it (true) for the caller's app, or an
   * admin's `appId` ('*': a namespace default).
   * @throws ValidationError naming the field; ConflictError(name) when it exists and `replace` is false, or
   *   (name) past MAX_NOTIFICATION_RULES; NotFoundError for an admin's `appId` with no client; ForbiddenError.
   */
  async set(caller: Caller, input: RuleInput, replace: boolean, appId?: string): Promise<NotificationRule> {
    const owner = namedApp(caller, appId) as string;
    // `.` and `..` pass the name's characters but no URL client can name them in a path (they are resolved away).
    if (/^\.+$/.test(input.name)) throw new ValidationError('name', 'name may not be only dots');
    const params = ruleParams(input);
    const channels = checkChannels(input.channels);
    await this.checkChannels(owner, channels);
    return this.uow.run(async (em) => {
      // The client row's lock serialises one app's rule changes, so the bound below is exact.
      if (owner !== NAMESPACE_DEFAULT) {
        const client = await this.clients.lockForUpdate(em, owner);
        if (!client && owner !== caller.appId) throw new NotFoundError('app', owner);
      }
      const ns = this.config.namespace;
      const before = await this.rules.find(ns, owner, input.name, em);
      if (before && !replace)
        throw new ConflictError(`rule '${input.name}' exists: PUT /api/notifications/rules/{name} replaces it`, 'name');
      if (!before && (await this.rules.countOf(ns, owner, em)) >= MAX_NOTIFICATION_RULES)
        throw new ConflictError(
          `'${owner}' holds ${MAX_NOTIFICATION_RULES} rules, the most it may: delete one`,
          'name',
        );
      const now = this.clock.now();
      const rule = Object.assign(new NotificationRule(), {
        id: before?.id ?? newId(),
        namespace: ns,
        appId: owner,
        name: input.name,
        kind: input.kind,
        jobCode: input.jobCode ?? null,
        handler: input.handler ?? null,
        params: params as Record<string, unknown>,
        channels,
        quietMs: input.quietMs ?? DEFAULT_QUIET_MS,
        groupBy: input.groupBy ?? 'SUBJECT',
        enabled: input.enabled ?? true,
        createdAt: before?.createdAt ?? now,
        updatedAt: now,
      });
      await this.rules.save(rule, em);
      const action = AuditAction.NOTIFY_RULE_SET;
      await this.audit.record(
        em,
        caller.appId,
        action,
        target(owner, rule.name),
        before && audited(before),
        audited(rule),
      );
      return rule;
    });
  }

  /** The rules of the caller's app (or an admin's `appId`, '*' the defaults), by name. */
  list(caller: Caller, appId?: string): Promise<NotificationRule[]> {
    return this.rules.listOf(this.config.namespace, namedApp(caller, appId) as string);
  }

  /** Rule `name`. @throws NotFoundError; ForbiddenError for another app's without admin. */
  async get(caller: Caller, name: string, appId?: string): Promise<NotificationRule> {
    const rule = await this.rules.find(this.config.namespace, namedApp(caller, appId) as string, name);
    if (!rule) throw new NotFoundError('notification rule', name);
    return rule;
  }

  /** Removes rule `name` (its messages stay). @throws NotFoundError; ForbiddenError. */
  async remove(caller: Caller, name: string, appId?: string): Promise<void> {
    const owner = namedApp(caller, appId) as string;
    await this.uow.run(async (em: Tx) => {
      const before = await this.rules.find(this.config.namespace, owner, name, em);
      if (!before || !(await this.rules.remove(this.config.namespace, owner, name, em)))
        throw new NotFoundError('notification rule', name);
      await this.audit.record(em, caller.appId, AuditAction.NOTIFY_RULE_DELETE, target(owner, name), audited(before));
    });
  }

  /**
   * Sends a test message of rule `name` to its channels now, past its quiet period (a namespace default's test
   * goes out as the caller's app). @returns the message id. @throws NotFoundError; ForbiddenError.
   */
  async test(caller: Caller, name: string, appId?: string): Promise<string> {
    const rule = await this.get(caller, name, appId);
    const app = rule.appId === NAMESPACE_DEFAULT ? caller.appId : rule.appId;
    const now = this.clock.now();
    // A test opens a message of its own (no grouping): without this bound tests could pile up OPEN messages far
    // faster than the hourly cap sends them.
    if ((await this.messages.countSince(this.config.namespace, app, now - HOUR_MS)) >= this.config.maxPerHour)
      throw new SchedulerError(
        ErrorCode.RATE_LIMITED,
        `app '${app}' has had ${this.config.maxPerHour} notification messages in the last hour ` +
          '(NOTIFY_MAX_PER_HOUR): a test would wait behind them; retry later',
        undefined,
        { retryAfterSeconds: 300 },
      );
    return this.uow.run(async (em: Tx) => {
      const { id } = await this.messages.add(em, {
        namespace: this.config.namespace,
        appId: app,
        ruleId: rule.id,
        ruleName: rule.name,
        kind: rule.kind,
        groupKey: `test:${newId()}`,
        title: `Test of rule ${rule.name} (${rule.kind}): its channels work`,
        channels: rule.channels,
        quietMs: 0,
        sample: { at: new Date(now).toISOString(), detail: `a test sent by ${caller.appId}` },
        now,
      });
      await this.audit.record(
        em,
        caller.appId,
        AuditAction.NOTIFY_RULE_TEST,
        target(rule.appId, rule.name),
        undefined,
        {
          notificationId: id,
        },
      );
      return id;
    });
  }

  private async checkChannels(owner: string, channels: readonly NotificationChannel[]): Promise<void> {
    const urls = channels.flatMap((c, i) => (c.type === 'email' ? [] : [{ url: c.url, field: `channels[${i}].url` }]));
    await this.urls.assertAll(owner, urls);
    const mail = channels.findIndex((c) => c.type === 'email');
    if (mail >= 0 && !this.config.smtpConfigured)
      throw new ValidationError(`channels[${mail}]`, 'e-mail is not set up here: the operator sets SMTP_URL first');
  }
}
