import { FakeClock } from '../../../../test/fakes/fake-clock.js';
import { TimeoutMode } from '../../../common/index.js';
import type { AppConfig } from '../../../config/index.js';
import { InProcessCoordinationAdapter, jobSlots } from '../../coordination/index.js';
import {
  type AdmissionInstances,
  type InstanceTransitions,
  type JobDefinitionRepository,
  JobInstance,
  JobInstanceStatus as S,
  newJobInstance,
  TriggerSource,
} from '../../metadata/index.js';
import type { HandOff } from '../../execution/index.js';
import { Admission, type InstanceEnd } from './admission.service.js';
import { JobSemaphore } from './job-semaphore.js';
import { inStopGrace, stopGraceMs, stopGraceOnCancel, stopGraceUntil } from './stop-grace.js';
import { WaitingTurns } from './waiting-turns.js';

const T0 = 1_800_000_000_000;
const CONFIG = {
  namespace: 'ns',
  leaseMs: 30_000,
  longTasks: { maxRunTimeMs: 86_400_000 },
  heartbeatIntervalMs: 5_000,
  nodeOfflineAfterMs: 15_000,
} as AppConfig;
const GRACE = 15_000;

/** The rows of job_instance and the admission settings of job_definition, in memory. */
class Rows {
  readonly byId = new Map<string, JobInstance>();
  readonly jobs = new Map<string, { overlapPolicy: string; maxConcurrency: number }>();

  /** One fake for admission's reads, its status writes and the job's current settings. */
  repository(): AdmissionInstances & InstanceTransitions & JobDefinitionRepository {
    const all = () => [...this.byId.values()];
    const ofJob = (jobId: string) => all().filter((r) => r.jobId === jobId);
    const repo = {
      findOldestWaiting: async (jobId: string) =>
        ofJob(jobId)
          .filter((r) => r.status === S.WAITING)
          .sort((a, b) => a.fireTime - b.fireTime)[0] ?? null,
      findAdmission: async (jobId: string) => this.jobs.get(jobId) ?? null,
      countOfJob: async (jobId: string, statuses: S[], dueBy: number | null, leaseAfter: number) =>
        ofJob(jobId).filter(
          (r) =>
            statuses.includes(r.status) ||
            (dueBy !== null && r.status === S.PENDING && r.dueAt <= dueBy) ||
            (r.status === S.CANCELLED && r.leaseUntil !== null && r.leaseUntil > leaseAfter),
        ).length,
      transition: async (id: string, from: S, to: S, guard: { attempt?: number }, patch: Partial<JobInstance>) => {
        const row = this.byId.get(id);
        if (!row || row.status !== from || (guard.attempt !== undefined && row.attempt !== guard.attempt)) return false;
        Object.assign(row, patch, { status: to });
        return true;
      },
      isCancelledAt: async (id: string, token: number) =>
        this.byId.get(id)?.status === S.CANCELLED && this.byId.get(id)?.fencingToken === token,
      clearCancelledLease: async (id: string, token: number) => {
        const row = this.byId.get(id);
        if (row?.status === S.CANCELLED && row.fencingToken === token) row.leaseUntil = null;
      },
      leaseUntilOf: async (id: string) => this.byId.get(id)?.leaseUntil,
      idsInStatus: async (ids: string[], statuses: S[]) =>
        new Set(ids.filter((id) => statuses.includes(this.byId.get(id)?.status as S))),
      findSlotHolders: async (_ns: string, take: number, jobIds?: string[]) =>
        all()
          .filter((r) => (r.status === S.DISPATCHED || r.status === S.RUNNING) && r.maxConcurrency > 0)
          .filter((r) => !jobIds || jobIds.includes(r.jobId as string))
          .slice(0, take),
      findStopping: async (jobIds: string[], now: number) =>
        all().filter((r) => jobIds.includes(r.jobId as string) && inStopGrace(r, now)),
    };
    return repo as unknown as AdmissionInstances & InstanceTransitions & JobDefinitionRepository;
  }

  /** An instance of `jobId` fired at T0 + `fire` ms. */
  add(jobId: string | null, status: S, fire: number, extra: Partial<JobInstance> = {}): JobInstance {
    const at = T0 + fire;
    const fields = {
      namespace: 'ns',
      appId: 'a',
      handler: 'h',
      fireTime: at,
      dueAt: at,
      triggerSource: TriggerSource.SCHEDULE,
    };
    const row = Object.assign(newJobInstance(fields, at), { jobId, status, ...extra });
    this.byId.set(row.id, row);
    return row;
  }

  status(row: JobInstance): S {
    return (this.byId.get(row.id) as JobInstance).status;
  }
}

describe('Admission', () => {
  let clock: FakeClock;
  let rows: Rows;
  let coordination: InProcessCoordinationAdapter;
  let sut: Admission;
  let handedOff: JobInstance[];
  const handOff: HandOff = { handOff: async (row) => handedOff.push(row) };
  const holders = async (jobId: string) =>
    (await coordination.acquireSlots(jobSlots(jobId), ['probe'], 1, 1, clock.now())) ?? 'unknown';

  beforeEach(() => {
    clock = new FakeClock(T0);
    rows = new Rows();
    coordination = new InProcessCoordinationAdapter(clock);
    handedOff = [];
    const instances = rows.repository();
    const semaphore = new JobSemaphore(instances, coordination, CONFIG);
    const turns = new WaitingTurns(instances, instances, instances, clock);
    sut = new Admission(instances, instances, semaphore, turns, CONFIG, clock);
  });

  describe('the stop grace', () => {
    it('lasts NODE_OFFLINE_AFTER_MS, and at least two heartbeats', () => {
      expect(stopGraceMs(CONFIG)).toBe(15_000);
      expect(stopGraceMs({ heartbeatIntervalMs: 10_000, nodeOfflineAfterMs: 15_000 })).toBe(20_000);
      expect(sut.stopGraceMs).toBe(GRACE);
    });

    it('is the lease_until of a CANCELLED row only, and ends at that instant', () => {
      expect(stopGraceUntil({ status: S.CANCELLED, leaseUntil: T0 + 10 })).toBe(T0 + 10);
      expect(stopGraceUntil({ status: S.CANCELLED, leaseUntil: null })).toBeNull(); // its executor ended it
      expect(stopGraceUntil({ status: S.RUNNING, leaseUntil: T0 + 10 })).toBeNull(); // a lease, not a grace
      expect(inStopGrace({ status: S.CANCELLED, leaseUntil: T0 + 10 }, T0 + 9)).toBe(true);
      expect(inStopGrace({ status: S.CANCELLED, leaseUntil: T0 + 10 }, T0 + 10)).toBe(false);
    });

    it('is written by a cancel of a RUNNING instance of a job only', () => {
      expect(stopGraceOnCancel({ status: S.RUNNING, jobId: 'j' }, T0, GRACE)).toBe(T0 + GRACE);
      expect(stopGraceOnCancel({ status: S.PENDING, jobId: 'j' }, T0, GRACE)).toBeNull();
      expect(stopGraceOnCancel({ status: S.RUNNING, jobId: null }, T0, GRACE)).toBeNull(); // a task: no slot, no turn
    });
  });

  const finished = { kind: 'finished', final: true } as const;

  describe('an end frees the slot and promotes the next WAITING instance, in one path', () => {
    it('frees the slot of a limited job, promotes the oldest WAITING instance due now and hands it off', async () => {
      rows.jobs.set('j', { overlapPolicy: 'ALLOW', maxConcurrency: 1 });
      const a = rows.add('j', S.PENDING, 0, { maxConcurrency: 1 });
      expect(await sut.admit([a], clock.now())).toEqual([a]);
      rows.byId.get(a.id)!.status = S.RUNNING;
      const b = rows.add('j', S.PENDING, 10, { maxConcurrency: 1 });
      expect(await sut.admit([b], clock.now())).toEqual([]);
      expect(rows.status(b)).toBe(S.WAITING);

      clock.setNow(T0 + 500);
      rows.byId.get(a.id)!.status = S.SUCCESS;
      await sut.ended(a, finished, handOff);

      expect(handedOff.map((r) => [r.id, r.status, r.dueAt])).toEqual([[b.id, S.PENDING, T0 + 500]]);
      expect(await sut.admit([rows.byId.get(b.id)!], clock.now())).toHaveLength(1); // a's slot is b's now
    });

    it('promotes nobody while the job is still full, and under the limit as the job has it now', async () => {
      rows.jobs.set('j', { overlapPolicy: 'ALLOW', maxConcurrency: 2 });
      const [a, b] = [0, 1].map((fire) => rows.add('j', S.RUNNING, fire, { maxConcurrency: 2 }));
      const c = rows.add('j', S.WAITING, 2, { maxConcurrency: 2 });
      rows.byId.get(a.id)!.status = S.SUCCESS;
      rows.jobs.set('j', { overlapPolicy: 'ALLOW', maxConcurrency: 1 }); // lowered while c waited
      await sut.ended(a, finished, handOff);
      expect(rows.status(c)).toBe(S.WAITING);
      rows.byId.get(b.id)!.status = S.SUCCESS;
      await sut.ended(b, finished, handOff);
      expect(handedOff.map((r) => [r.id, r.maxConcurrency])).toEqual([[c.id, 1]]);
    });

    it("leaves a QUEUE turn to a retry waiting out its backoff; a limited job's retry holds no slot", async () => {
      rows.jobs.set('q', { overlapPolicy: 'QUEUE', maxConcurrency: 0 });
      rows.jobs.set('l', { overlapPolicy: 'ALLOW', maxConcurrency: 1 });
      rows.add('q', S.PENDING, 0, { dueAt: T0 + 60_000 });
      rows.add('l', S.PENDING, 0, { dueAt: T0 + 60_000, maxConcurrency: 1 });
      const q = rows.add('q', S.WAITING, 1);
      const l = rows.add('l', S.WAITING, 1, { maxConcurrency: 1 });
      await sut.promoteNext('q', handOff);
      await sut.promoteNext('l', handOff);
      expect([rows.status(q), rows.status(l)]).toEqual([S.WAITING, S.PENDING]);
    });

    it('does nothing for a task of no job', async () => {
      await sut.ended(rows.add(null, S.SUCCESS, 0), finished, handOff);
      expect(handedOff).toEqual([]);
    });
  });

  describe('what each reported end decides (docs/admission.md "Who reports what")', () => {
    const GRACE_END = T0 + GRACE;
    type Case = [string, InstanceEnd, Partial<JobInstance>, { freed: boolean; graceEnded?: boolean }];
    const cases: Case[] = [
      ['a won final write', { kind: 'finished', final: true }, { status: S.SUCCESS }, { freed: true }],
      [
        'a retry of a limited job',
        { kind: 'finished', final: false },
        { status: S.PENDING, dueAt: T0 + 9e5 },
        { freed: true },
      ],
      [
        'a lost write of the attempt cancelled',
        { kind: 'finishLost', fencingToken: 7 },
        cancelledAt(7),
        { freed: true, graceEnded: true },
      ],
      [
        'a stopped attempt, the one cancelled',
        { kind: 'stopped', fencingToken: 7 },
        cancelledAt(7),
        { freed: true, graceEnded: true },
      ],
      [
        'a lost write, the row run again elsewhere',
        { kind: 'finishLost', fencingToken: 7 },
        { status: S.RUNNING, fencingToken: 8 },
        { freed: false },
      ],
      [
        'a stopped attempt, a later one cancelled',
        { kind: 'stopped', fencingToken: 7 },
        cancelledAt(8),
        { freed: false },
      ],
      [
        'a cancel before it ran',
        { kind: 'cancelled', from: S.DISPATCHED, at: T0 },
        { status: S.CANCELLED },
        { freed: true },
      ],
      [
        'a cancel while it ran (the stop grace)',
        { kind: 'cancelled', from: S.RUNNING, at: T0 },
        cancelledAt(7),
        { freed: false },
      ],
      ['a quarantine', { kind: 'quarantined' }, { status: S.FAILED }, { freed: true }],
      ['a take-back with no attempt left', { kind: 'takenBack' }, { status: S.FAILED }, { freed: true }],
    ];

    function cancelledAt(token: number): Partial<JobInstance> {
      return { status: S.CANCELLED, fencingToken: token, leaseUntil: GRACE_END };
    }

    it.each(cases)('%s', async (_what, end, after, expected) => {
      rows.jobs.set('j', { overlapPolicy: 'ALLOW', maxConcurrency: 1 });
      const a = rows.add('j', S.PENDING, 0, { maxConcurrency: 1, fencingToken: 7, timeoutMs: 600_000 });
      await sut.admit([a], clock.now());
      const b = rows.add('j', S.WAITING, 10, { maxConcurrency: 1 });
      Object.assign(rows.byId.get(a.id)!, after);

      await sut.ended(a, end, handOff);

      expect(handedOff.map((r) => r.id)).toEqual(expected.freed ? [b.id] : []);
      expect(await holders('j')).toEqual(expected.freed ? ['probe'] : []); // a's slot free, or still a's
      if (expected.graceEnded) expect(rows.byId.get(a.id)!.leaseUntil).toBeNull();
    });
  });

  it('holds a slot for its run limit + LEASE_MS: timeoutMs under HARD, MAX_RUN_TIME_MS under HEARTBEAT', async () => {
    rows.jobs.set('hard', { overlapPolicy: 'ALLOW', maxConcurrency: 1 });
    rows.jobs.set('soft', { overlapPolicy: 'ALLOW', maxConcurrency: 1 });
    const limited = { maxConcurrency: 1, timeoutMs: 1000 };
    const hard = rows.add('hard', S.PENDING, 0, limited);
    const soft = rows.add('soft', S.PENDING, 0, { ...limited, timeoutMode: TimeoutMode.HEARTBEAT });
    await sut.admit([hard, soft], clock.now());
    clock.setNow(T0 + 1000 + CONFIG.leaseMs);
    // HARD: its only slot expired, and with it the semaphore; HEARTBEAT: still held for a heart-beating run
    expect([await holders('hard'), await holders('soft')]).toEqual(['unknown', []]);
    clock.setNow(T0 + 86_400_000 + CONFIG.leaseMs);
    expect(await holders('soft')).toEqual('unknown');
  });

  it('gives a QUEUE job its turns in fire order, one at a time', async () => {
    rows.jobs.set('q', { overlapPolicy: 'QUEUE', maxConcurrency: 0 });
    const running = rows.add('q', S.RUNNING, 0);
    const [third, first, second] = [30, 10, 20].map((fire) => rows.add('q', S.WAITING, fire));
    await sut.promoteNext('q', handOff);
    expect(handedOff).toEqual([]); // running has the turn
    let current = running;
    for (const next of [first, second, third]) {
      rows.byId.get(current.id)!.status = S.SUCCESS;
      await sut.ended(current, finished, handOff);
      await sut.ended(current, finished, handOff); // a second report of the same end promotes nobody more
      expect(handedOff.map((r) => r.id).at(-1)).toBe(next.id);
      current = rows.byId.get(next.id)!;
      current.status = S.RUNNING;
    }
    expect(handedOff.map((r) => r.id)).toEqual([first.id, second.id, third.id]);
  });

  describe('a cancelled RUNNING instance keeps its slot and turn for the stop grace', () => {
    it('under QUEUE, until its executor ends the grace for the attempt that was cancelled', async () => {
      rows.jobs.set('q', { overlapPolicy: 'QUEUE', maxConcurrency: 0 });
      const a = rows.add('q', S.RUNNING, 0, { fencingToken: 7 });
      const b = rows.add('q', S.WAITING, 10);
      Object.assign(rows.byId.get(a.id)!, { status: S.CANCELLED, leaseUntil: sut.stopGraceOnCancel(a, clock.now()) });
      await sut.promoteNext('q', handOff);
      await sut.ended(a, { kind: 'stopped', fencingToken: 6 }, handOff); // an older attempt of a: not the one cancelled
      expect(rows.status(b)).toBe(S.WAITING);
      await sut.ended(a, { kind: 'stopped', fencingToken: 7 }, handOff);
      expect(handedOff.map((r) => r.id)).toEqual([b.id]);
    });

    it('and no longer than the grace when its executor never answers', async () => {
      rows.jobs.set('q', { overlapPolicy: 'QUEUE', maxConcurrency: 0 });
      const a = rows.add('q', S.CANCELLED, 0, { leaseUntil: T0 + GRACE });
      const b = rows.add('q', S.WAITING, 10);
      clock.setNow(T0 + GRACE - 1);
      await sut.promoteNext('q', handOff);
      expect(rows.status(b)).toBe(S.WAITING);
      clock.setNow(T0 + GRACE);
      await sut.promoteNext('q', handOff);
      expect(handedOff.map((r) => r.id)).toEqual([b.id]);
      expect(rows.status(a)).toBe(S.CANCELLED);
    });

    it('under a limit, its slot expiring with the grace; freed at once when the grace had already ended', async () => {
      rows.jobs.set('j', { overlapPolicy: 'ALLOW', maxConcurrency: 1 });
      const a = rows.add('j', S.PENDING, 0, { maxConcurrency: 1, timeoutMs: 600_000 });
      await sut.admit([a], clock.now());
      const cancelled = Object.assign(rows.byId.get(a.id)!, { status: S.RUNNING });
      Object.assign(cancelled, { status: S.CANCELLED, leaseUntil: sut.stopGraceOnCancel(cancelled, clock.now()) });
      await sut.ended(cancelled, { kind: 'cancelled', from: S.RUNNING, at: clock.now() }, handOff);
      clock.setNow(T0 + GRACE - 1);
      expect(await holders('j')).toEqual([]); // still held
      clock.setNow(T0 + GRACE);
      expect(await holders('j')).toEqual(['probe']);

      const b = rows.add('j', S.RUNNING, 1, { maxConcurrency: 1, leaseUntil: null });
      await coordination.seedSlots(jobSlots('j'), [b.id], 600_000, clock.now());
      Object.assign(rows.byId.get(b.id)!, { status: S.CANCELLED }); // its executor ended the grace before the hold
      await sut.ended(b, { kind: 'cancelled', from: S.RUNNING, at: clock.now() }, handOff);
      await coordination.releaseSlot(jobSlots('j'), 'probe');
      expect(await holders('j')).toEqual(['probe']);
    });
  });

  it('rebuilds a semaphore lost with Redis from the running instances and those in their stop grace', async () => {
    rows.jobs.set('j', { overlapPolicy: 'ALLOW', maxConcurrency: 2 });
    rows.add('j', S.RUNNING, 0, { maxConcurrency: 2 });
    rows.add('j', S.CANCELLED, 1, { maxConcurrency: 2, leaseUntil: T0 + GRACE });
    rows.add('j', S.CANCELLED, 2, { maxConcurrency: 2, leaseUntil: null }); // stopped: holds nothing
    const c = rows.add('j', S.PENDING, 3, { maxConcurrency: 2 });
    expect(await holders('j')).toBe('unknown');

    expect(await sut.admit([c], clock.now())).toEqual([]);
    expect(rows.status(c)).toBe(S.WAITING);
    clock.setNow(T0 + GRACE);
    const again = Object.assign(rows.byId.get(c.id)!, { status: S.PENDING });
    expect(await sut.admit([again], clock.now())).toEqual([again]);
  });

  it('reassert reports the jobs over their limit and frees the slots of rows that ended since the read', async () => {
    rows.jobs.set('j', { overlapPolicy: 'ALLOW', maxConcurrency: 1 });
    const [a, b] = [0, 1].map((fire) => rows.add('j', S.RUNNING, fire, { maxConcurrency: 1 }));
    await coordination.seedSlots(jobSlots('j'), [a.id], 60_000, clock.now());
    const read = [a, b].map((r) => ({ ...r }));
    rows.byId.get(b.id)!.status = S.SUCCESS;
    expect(await sut.reassert(read, clock.now())).toEqual(['j']);
    await coordination.releaseSlot(jobSlots('j'), a.id);
    expect(await holders('j')).toEqual(['probe']); // b's slot was given back
  });
});
