import {
  INSTANCE_FINAL,
  type MessageEvent,
  type NewNotificationEvent,
  type NotificationEvent,
  NotificationKind as K,
  type NotificationRule,
  type NotifiedRun,
  JobInstanceStatus as S,
} from '../../metadata/index.js';
import { deadlineOf } from '../rules/rule-input.js';
import {
  admits,
  type AppliedRule,
  failuresBefore,
  groupKeyOf,
  isFailure,
  iso,
  rulesOfApp,
  runName,
  sampleOf,
  streakReached,
  subjectOf,
  targetAdmits,
} from './match.js';
import { cutText } from '../../../common/index.js';

/** The event kinds the scans write (docs/notifications.md "Events"). */
export const ScanEvent = {
  DEADLINE: 'DEADLINE',
  LATE_START: 'LATE_START',
  HANDLER_WAIT: 'HANDLER_WAIT',
  HOST_DOWN: 'HOST_DOWN',
} as const;

/** What one event yields: messages to add, and events to write (a deadline or late start seen at the final state). */
export interface EventOutputs {
  messages: MessageEvent[];
  followUps: NewNotificationEvent[];
}

/** A job's newest outcomes up to a fire, newest first (NotificationInstances.outcomesUpTo). */
export type OutcomesUpTo = (jobId: string, fireTime: number, limit: number) => Promise<NotifiedRun[]>;

/** Most failures a recovery message counts back. */
const RECOVERY_LOOKBACK = 100;

/**
 * What event `ev` of app `ev.appId` yields under `rules` (the enabled rules of the apps at hand and the namespace
 * defaults); `run` is its instance when it has one (null: gone, nothing to say). Pure but for `outcomes`.
 */
export async function outputsOf(
  ev: NotificationEvent,
  rules: readonly NotificationRule[],
  run: NotifiedRun | null,
  outcomes: OutcomesUpTo,
  now: number,
): Promise<EventOutputs> {
  const out: EventOutputs = { messages: [], followUps: [] };
  const msg = (rule: AppliedRule, title: string, subject: string, sample: MessageEvent['sample']) =>
    out.messages.push({
      namespace: ev.namespace,
      appId: ev.appId,
      ruleId: rule.id,
      ruleName: rule.name,
      kind: rule.kind,
      groupKey: groupKeyOf(rule, subject),
      title,
      channels: rule.channels,
      quietMs: rule.quietMs,
      sample,
      now,
    });
  const byId = (id: string | null) => rules.find((r) => r.id === id) ?? null;
  const data = ev.data ?? {};
  if (ev.kind === INSTANCE_FINAL) {
    if (run) await finalOutputs(ev, run, rulesOfApp(rules, ev.appId), outcomes, out, msg, now);
  } else if (ev.kind === ScanEvent.DEADLINE || ev.kind === ScanEvent.LATE_START) {
    const rule = byId(ev.ruleId);
    if (!rule || !run) return out;
    const fired = `the run fired ${iso(run.fireTime)}`;
    const title =
      ev.kind === ScanEvent.DEADLINE
        ? `${runName(run)}: ${fired} had not finished by ${iso(Number(data.deadline))}`
        : typeof data.startedAt === 'number'
          ? `${runName(run)}: ${fired} started ${data.startedAt - run.fireTime} ms late`
          : `${runName(run)}: ${fired} had not started ${now - run.fireTime} ms after its fire`;
    msg({ ...rule }, title, subjectOf(run), sampleOf(run, ev.at, title));
  } else if (ev.kind === ScanEvent.HANDLER_WAIT) {
    const rule = byId(ev.ruleId);
    if (!rule) return out;
    const handler = String(data.handler);
    const nobody = 'no live executor or app worker advertises it';
    const title = `${Number(data.count)} task(s) wait for handler ${handler}: ${nobody}`;
    const detail = `${Number(data.count)} waiting, the oldest since ${iso(Number(data.oldestCreatedAt))}`;
    msg({ ...rule }, title, `handler:${handler}`, { at: iso(ev.at), handler, detail });
  } else if (ev.kind === ScanEvent.HOST_DOWN) {
    const host = String(data.host);
    const failures = Number(data.failures);
    const title = `callbacks to ${host} are failing: ${failures} tries in a row failed`;
    for (const rule of rulesOfApp(rules, ev.appId).filter((r) => r.kind === K.CALLBACK_HOST_FAILING)) {
      msg(rule, title, `host:${host}`, { at: iso(ev.at), host, error: cutText(String(data.lastError ?? ''), 300) });
    }
  }
  return out;
}

type Msg = (rule: AppliedRule, title: string, subject: string, sample: MessageEvent['sample']) => void;

async function finalOutputs(
  ev: NotificationEvent,
  run: NotifiedRun,
  applied: AppliedRule[],
  outcomes: OutcomesUpTo,
  out: EventOutputs,
  msg: Msg,
  now: number,
): Promise<void> {
  const failed = isFailure(run.status);
  const follow = (rule: AppliedRule, kind: string, data: Record<string, unknown>) =>
    out.followUps.push({
      namespace: ev.namespace,
      appId: ev.appId,
      kind,
      dedupKey: `${kind === ScanEvent.DEADLINE ? 'deadline' : 'late'}:${rule.id}:${run.id}`,
      instanceId: run.id,
      ruleId: rule.id,
      data,
      at: now,
    });
  for (const rule of applied.filter((r) => admits(r, run))) {
    const p = rule.params;
    if (rule.kind === K.FINAL_FAILURE && failed && targetAdmits(p.target, run.jobId)) {
      const why = run.error ? `: ${cutText(run.error, 120)}` : '';
      msg(rule, `${runName(run)} ended ${run.status}${why}`, subjectOf(run), sampleOf(run, ev.at));
    }
    if (run.jobId === null) continue;
    if (rule.kind === K.CONSECUTIVE_FAILURES && failed) {
      const count = Number(p.count);
      if (streakReached(await outcomes(run.jobId, run.fireTime, count + 1), count))
        msg(rule, `${runName(run)} failed ${count} times in a row`, subjectOf(run), sampleOf(run, ev.at));
    } else if (rule.kind === K.RECOVERY && run.status === S.SUCCESS) {
      const k = failuresBefore(await outcomes(run.jobId, run.fireTime, RECOVERY_LOOKBACK + 1));
      const n = k >= RECOVERY_LOOKBACK ? `${k}+` : String(k);
      if (k > 0) msg(rule, `${runName(run)} recovered after ${n} failure(s)`, subjectOf(run), sampleOf(run, ev.at));
    } else if (rule.kind === K.DEADLINE) {
      const deadline = deadlineOf(p, run.fireTime);
      if (deadline !== null && run.finishedAt !== null && run.finishedAt > deadline)
        follow(rule, ScanEvent.DEADLINE, { deadline });
    } else if (rule.kind === K.LATE_START && run.attempt === 1 && run.startedAt !== null) {
      if (run.startedAt - run.fireTime > Number(p.thresholdMs))
        follow(rule, ScanEvent.LATE_START, { startedAt: run.startedAt });
    }
  }
}
