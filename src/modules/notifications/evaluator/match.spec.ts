import { NotificationKind as K, type NotificationRule, JobInstanceStatus as S } from '../../metadata/index.js';
import { failuresBefore, rulesOfApp, streakReached, targetAdmits } from './match.js';

const runs = (...statuses: S[]) => statuses.map((status) => ({ status }));
const rule = (appId: string, name: string, kind: K) => ({ appId, name, kind, id: name }) as unknown as NotificationRule;

describe('notification matching', () => {
  it('should report a streak once, when it reaches the count, and not again as it grows', () => {
    expect(streakReached(runs(S.FAILED, S.TIMEOUT, S.SUCCESS), 2)).toBe(true);
    expect(streakReached(runs(S.FAILED, S.FAILED), 2)).toBe(true);
    expect(streakReached(runs(S.FAILED, S.FAILED, S.FAILED), 2)).toBe(false);
    expect(streakReached(runs(S.FAILED, S.SUCCESS, S.FAILED), 2)).toBe(false);
    expect(streakReached(runs(S.FAILED), 2)).toBe(false);
  });

  it('should count the failures a success recovers from', () => {
    expect(failuresBefore(runs(S.SUCCESS, S.FAILED, S.TIMEOUT, S.SUCCESS, S.FAILED))).toBe(2);
    expect(failuresBefore(runs(S.SUCCESS, S.SUCCESS))).toBe(0);
  });

  it("should apply an app's own rules, the defaults of kinds it has none of, and the built-in host rule", () => {
    const all = [
      rule('a', 'mine', K.FINAL_FAILURE),
      rule('*', 'ops', K.FINAL_FAILURE),
      rule('*', 'ops-late', K.LATE_START),
    ];
    expect(rulesOfApp(all, 'a').map((r) => r.name)).toEqual(['mine', 'ops-late', 'callback-host-failing']);
    expect(rulesOfApp(all, 'b').map((r) => r.name)).toEqual(['ops', 'ops-late', 'callback-host-failing']);
    const hostRule = rule('a', 'hosts', K.CALLBACK_HOST_FAILING);
    expect(rulesOfApp([hostRule], 'a').map((r) => r.name)).toEqual(['hosts']);
  });

  it("should admit jobs, tasks or both by a failure rule's target", () => {
    expect([
      targetAdmits('JOB', 'j'),
      targetAdmits('JOB', null),
      targetAdmits('TASK', null),
      targetAdmits(undefined, 'j'),
    ]).toEqual([true, false, true, true]);
  });
});
