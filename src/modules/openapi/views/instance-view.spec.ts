import { JobAttempt, JobInstanceStatus as S, newJobInstance, TriggerSource } from '../../metadata/index.js';
import { toTaskView } from './instance-view.js';

const T0 = Date.UTC(2026, 11, 1, 12, 0, 0);

/** The task view's top-level error is the outcome's: a retry's earlier failure stays in the attempt trail. */
describe('toTaskView error', () => {
  const row = (status: S, attempt: number, error: string | null) =>
    Object.assign(
      newJobInstance(
        { namespace: 'ns', appId: 'a', handler: 'h', fireTime: T0, triggerSource: TriggerSource.API, dueAt: T0 },
        T0,
      ),
      { status, attempt, maxAttempts: 3, error },
    );
  const first = Object.assign(new JobAttempt(), {
    attempt: 1,
    nodeId: 'n',
    fencingToken: 1,
    status: 'FAILED',
    startedAt: T0,
    finishedAt: T0 + 10,
    error: 'boom',
  });

  it.each([S.PENDING, S.DISPATCHED, S.RUNNING])("should not show attempt 1's error while attempt 2 is %s", (st) => {
    const view = toTaskView(row(st, 2, 'boom'), [first]);
    expect(view.error).toBeNull();
    expect(view.attempts?.[0].error).toBe('boom');
  });

  it.each([S.FAILED, S.TIMEOUT, S.CANCELLED])('should show the error of an instance ended %s', (st) => {
    expect(toTaskView(row(st, 2, 'the end')).error).toBe('the end');
  });
});
