import { FINAL_STATUSES, JobInstanceStatus as S } from './job-instance-status.js';
import { assertTransition, canTransition, INITIAL_STATUSES, TRANSITIONS } from './transitions.js';

/** The expected table written out independently of TRANSITIONS: every pair of states is checked. */
const EXPECTED: Record<S, S[]> = {
  [S.PENDING]: [S.DISPATCHED, S.WAITING, S.CANCELLED, S.FAILED], // → FAILED: quarantine of a corrupt row
  [S.WAITING]: [S.PENDING, S.CANCELLED],
  [S.DISPATCHED]: [S.RUNNING, S.PENDING, S.CANCELLED, S.FAILED],
  [S.RUNNING]: [S.SUCCESS, S.FAILED, S.TIMEOUT, S.CANCELLED, S.PENDING],
  [S.FAILED]: [S.PENDING],
  [S.TIMEOUT]: [S.PENDING],
  [S.SUCCESS]: [],
  [S.CANCELLED]: [],
};

describe('JobInstance transitions', () => {
  const all = Object.values(S);

  it('should list every status as a source', () => {
    expect([...TRANSITIONS.keys()].sort()).toEqual([...all].sort());
  });

  for (const from of all) {
    for (const to of all) {
      const allowed = EXPECTED[from].includes(to);
      it(`should ${allowed ? 'allow' : 'refuse'} ${from} -> ${to}`, () => {
        expect(canTransition(from, to)).toBe(allowed);
        if (allowed) expect(() => assertTransition(from, to)).not.toThrow();
        else expect(() => assertTransition(from, to)).toThrow(/illegal job instance transition/);
      });
    }
  }

  it('should never leave SUCCESS or CANCELLED', () => {
    expect(TRANSITIONS.get(S.SUCCESS)?.size).toBe(0);
    expect(TRANSITIONS.get(S.CANCELLED)?.size).toBe(0);
    expect(FINAL_STATUSES.has(S.SUCCESS) && FINAL_STATUSES.has(S.CANCELLED)).toBe(true);
  });

  it('should let a new row start only PENDING, DISPATCHED, WAITING or CANCELLED, each a status the table knows', () => {
    expect([...INITIAL_STATUSES].sort()).toEqual([S.CANCELLED, S.DISPATCHED, S.PENDING, S.WAITING]);
    for (const s of INITIAL_STATUSES) expect(TRANSITIONS.has(s)).toBe(true);
  });
});
