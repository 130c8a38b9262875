import { cutText, formatTraceparent, instanceTrace } from '../../../common/index.js';
import {
  NAMESPACE_DEFAULT,
  type NotificationEventSample,
  NotificationKind as K,
  type NotificationRule,
  type NotifiedRun,
  JobInstanceStatus as S,
} from '../../metadata/index.js';
import { type FailureTarget } from '../rules/rule-input.js';

/** A rule as the evaluator applies it: stored, or the built-in default (`id` null). */
export type AppliedRule = Pick<
  NotificationRule,
  'name' | 'kind' | 'jobCode' | 'handler' | 'params' | 'channels' | 'quietMs' | 'groupBy'
> & { id: string | null; appId: string };

/**
 * The built-in rule every app has until it (or the namespace) sets one of kind CALLBACK_HOST_FAILING: its
 * messages are recorded and listed (GET /api/notifications) with no channel to send to.
 */
export const BUILTIN_HOST_RULE: Omit<AppliedRule, 'appId'> = {
  id: null,
  name: 'callback-host-failing',
  kind: K.CALLBACK_HOST_FAILING,
  jobCode: null,
  handler: null,
  params: {},
  channels: [],
  quietMs: 600_000,
  groupBy: 'SUBJECT',
};

/**
 * The rules that apply to app `appId` among `rules` (its own and the namespace defaults, all enabled): its own,
 * then each default of a kind it has no rule of, then the built-in host rule when no rule covers that kind.
 */
export function rulesOfApp(rules: readonly NotificationRule[], appId: string): AppliedRule[] {
  const own = rules.filter((r) => r.appId === appId);
  const kinds = new Set(own.map((r) => r.kind));
  const defaults = rules.filter((r) => r.appId === NAMESPACE_DEFAULT && !kinds.has(r.kind));
  const out: AppliedRule[] = [...own, ...defaults];
  if (!out.some((r) => r.kind === K.CALLBACK_HOST_FAILING)) out.push({ ...BUILTIN_HOST_RULE, appId });
  return out;
}

const INSTANCE_KINDS = new Set<K>([K.FINAL_FAILURE, K.CONSECUTIVE_FAILURES, K.RECOVERY, K.DEADLINE, K.LATE_START]);

/** Whether any of `rules` that apply to `appId` (its own or a default) could use a final state's event. */
export function hasInstanceRule(rules: readonly NotificationRule[], appId: string): boolean {
  return rulesOfApp(rules, appId).some((r) => INSTANCE_KINDS.has(r.kind));
}

/** Whether `rule`'s job and handler filters admit `run`. */
export function admits(rule: AppliedRule, run: Pick<NotifiedRun, 'jobCode' | 'handler'>): boolean {
  if (rule.jobCode !== null && rule.jobCode !== run.jobCode) return false;
  return rule.handler === null || rule.handler === run.handler;
}

const FAILED = new Set<S>([S.FAILED, S.TIMEOUT]);

/** Whether `status` is a failure (FAILED, TIMEOUT). */
export const isFailure = (status: S): boolean => FAILED.has(status);

/** Whether a FINAL_FAILURE rule's target admits a run of a job (`jobId` set) or a task. */
export function targetAdmits(target: unknown, jobId: string | null): boolean {
  const t = (target ?? 'ANY') as FailureTarget;
  return t === 'ANY' || (t === 'JOB') === (jobId !== null);
}

/**
 * Whether `outcomes` (a job's newest first, the run at hand first) end a streak of exactly `count` failures: the
 * first `count` failed and the one before them (if any) did not, so a streak is reported once, when it reaches
 * `count`, however long it grows.
 */
export function streakReached(outcomes: readonly Pick<NotifiedRun, 'status'>[], count: number): boolean {
  if (outcomes.length < count) return false;
  for (let i = 0; i < count; i++) if (!isFailure(outcomes[i].status)) return false;
  return outcomes.length === count || !isFailure(outcomes[count].status);
}

/** How many failures came right before the success `outcomes[0]` (newest first); 0: nothing to recover from. */
export function failuresBefore(outcomes: readonly Pick<NotifiedRun, 'status'>[]): number {
  let n = 0;
  for (let i = 1; i < outcomes.length && isFailure(outcomes[i].status); i++) n++;
  return n;
}

const iso = (ms: number) => new Date(ms).toISOString();

/** An event sample of `run` at `at` (epoch ms), its error cut to 300 characters. */
export function sampleOf(run: NotifiedRun, at: number, detail?: string): NotificationEventSample {
  return {
    at: iso(at),
    jobCode: run.jobCode,
    requestId: run.requestId,
    instanceId: run.id,
    handler: run.handler,
    status: run.status,
    error: run.error === null ? null : cutText(run.error, 300),
    traceparent: formatTraceparent(instanceTrace(run)),
    ...(detail === undefined ? {} : { detail }),
  };
}

/** A run named for a title: `job <code>` or `task <requestId> (<handler>)`. */
export function runName(run: Pick<NotifiedRun, 'jobCode' | 'requestId' | 'handler'>): string {
  return run.jobCode !== null ? `job ${run.jobCode}` : `task ${run.requestId} (${run.handler})`;
}

/** The message stream of `subject` under `rule`: per subject, or one for the whole rule. */
export function groupKeyOf(rule: Pick<AppliedRule, 'groupBy'>, subject: string): string {
  return rule.groupBy === 'RULE' ? '*' : subject.slice(0, 300);
}

/** The subject of a run: its job's code, else (a task) its handler. */
export const subjectOf = (run: Pick<NotifiedRun, 'jobCode' | 'handler'>): string =>
  run.jobCode !== null ? `job:${run.jobCode}` : `handler:${run.handler}`;

export { iso };
