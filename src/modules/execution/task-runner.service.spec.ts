import { clockAt } from '../../../test/fakes/fake-clock.js';
import {
  BackoffKind,
  type EndedAttempt,
  type ExecutionInstances,
  type ExecutionLedger,
  type InstanceTransitions,
  JobInstance,
  JobInstanceStatus as S,
  type SucceededAttempt,
  UnitOfWork,
} from '../metadata/index.js';
import type { MetricsService } from '../observability/index.js';
import type { AttemptAdmission } from './attempt-admission.hook.js';
import type { AttemptEndedHook } from './attempt-ended.hook.js';
import { JobFailure, type JobHandlerImpl } from '../handler/index.js';
import { CheckpointWriter } from './attempt-checkpoints.js';
import { AttemptExecution } from './attempt-execution.js';
import { AttemptFinish } from './attempt-finish.js';
import { FinishWriter } from './finish-writer.js';
import { ProgressWriter } from './progress-writer.js';
import { TaskRunner } from './task-runner.service.js';

const NOW = 1_800_000_000_000;

/**
 * The finishing write of an attempt (docs/state-machine.md, docs/execution.md), the close of its job_attempt row
 * and the callback delivery of a final state (never of a retry; docs/callbacks.md "Outbox") commit in one
 * transaction (UnitOfWork), so a node killed between them cannot leave the attempt RUNNING for ever; what
 * follows the commit (delay queue, metrics) happens only when the write won.
 */
describe('TaskRunner finishing write', () => {
  let log: string[];
  let row: JobInstance;
  let outcome: () => Promise<unknown>;
  let tokenIsCurrent: boolean;
  /** Transactions that fail with a MySQL deadlock before one goes through. */
  let deadlocks: number;
  /** Finishing transactions that commit, then lose the connection before the answer (a retry follows). */
  let commitAnswerLost: number;
  /** The row as the last winning transition left it. */
  let stored: JobInstance | null;
  /** Every attempt the finishing writes wrote. */
  let endedAttempts: EndedAttempt[];

  function runner(): TaskRunner {
    const instances = {
      together: async (work: (em: unknown) => Promise<unknown>) => {
        log.push('begin');
        if (log.includes('claim') && deadlocks > 0) {
          deadlocks--;
          log.push('deadlock');
          throw Object.assign(new Error('Deadlock found'), { errno: 1213 });
        }
        const out = await work('tx');
        log.push('commit');
        if (commitAnswerLost > 0 && log.some((l) => l.startsWith('RUNNING->PENDING'))) {
          commitAnswerLost--;
          log.push('connection lost after commit');
          throw Object.assign(new Error('Connection lost: The server closed the connection.'), {
            code: 'PROTOCOL_CONNECTION_LOST',
            fatal: true,
          });
        }
        return out;
      },
      transition: async (
        _id: string,
        from: S,
        to: S,
        guard: { fencingToken?: number },
        patch: Partial<JobInstance>,
        now: number,
        em?: unknown,
      ) => {
        const won = tokenIsCurrent && (stored?.status ?? S.RUNNING) === from;
        if (won)
          stored = Object.assign(new JobInstance(), row, patch, {
            status: to,
            updatedAt: now,
            fencingToken: guard.fencingToken,
          });
        const attempt = patch.attempt ? ` attempt ${patch.attempt}` : '';
        const token = guard.fencingToken ? ` token ${guard.fencingToken}` : '';
        log.push(`${from}->${to}${attempt}${token}${em ? ` in ${em}` : ''}${won ? '' : ' lost'}`);
        return won;
      },
    } as unknown as ExecutionInstances & InstanceTransitions;
    const ledger = {
      findMany: async (ids: string[]) => ids.map((id) => Object.assign(new JobInstance(), stored ?? row, { id })),
      claim: async (em: unknown, rows: JobInstance[], _node: string, now: number) => {
        log.push(em ? `claim in ${em}` : 'claim');
        return rows.map((r) => ({ row: r, fencingToken: r.fencingToken + 1, startedAt: now }));
      },
      succeed: async (em: unknown, done: SucceededAttempt[]) => {
        log.push(
          ...done.map(
            (d) => `RUNNING->SUCCESS token ${d.fencingToken}${em ? ` in ${em}` : ''}${tokenIsCurrent ? '' : ' lost'}`,
          ),
        );
        return new Set(tokenIsCurrent ? done.map((d) => d.id) : []);
      },
      endAttempts: async (em: unknown, ended: EndedAttempt[]) => {
        endedAttempts.push(...ended);
        log.push(...ended.map((a) => `attempt ${a.attempt} ${a.status}${em ? ` in ${em}` : ''}`));
      },
    } as unknown as ExecutionLedger;
    const handler: JobHandlerImpl = { execute: () => outcome() };
    const counter = { inc: () => log.push('metric'), observe: () => undefined };
    const metrics = {
      executionSeconds: counter,
      retries: counter,
      instancesFinished: counter,
    } as unknown as MetricsService;
    const delays = {
      schedule: async (id: string, at: number) => void log.push(`delay ${id} +${at - NOW}`),
      wakePump: () => undefined,
    };
    const config = { leaseMs: 60_000, longTasks: { checkpointMaxBytes: 65_536, progressWriteIntervalMs: 1000 } };
    const clock = clockAt(() => NOW);
    const uow = { run: (instances as unknown as { together: UnitOfWork['run'] }).together };
    const deliveries = {
      enqueueFinal: async (em: unknown, finals: ReadonlyArray<{ id: string }>) =>
        (finals.length > 0 && log.push(`callback ${finals.map((f) => f.id).join(',')}${em ? ` in ${em}` : ''}`)) || 0,
    };
    // Each part built from only what it uses; the runner from its parts.
    const progress = new ProgressWriter({ writeProgress: async () => 0 }, metrics, clock, config);
    const checkpoints = new CheckpointWriter({ writeCheckpoint: async () => true }, config, clock);
    const execution = new AttemptExecution(
      { get: () => handler },
      { refusal: async () => null },
      metrics,
      clock,
      checkpoints,
      progress,
      { longTasks: { maxRunTimeMs: 86_400_000 } },
    );
    const writes = new FinishWriter(instances, ledger, uow, deliveries, clock, config);
    const admission: AttemptAdmission = { ended: async () => undefined };
    const hook: AttemptEndedHook = { attemptEnded: async () => undefined };
    const attempts = { recordHandlerEnd: async () => undefined };
    const runs = { finished: () => void log.push('metric') };
    const finishing = new AttemptFinish(writes, attempts, metrics, runs, delays, admission, hook, clock);
    const late = { claimed: () => undefined };
    return new TaskRunner(
      execution,
      finishing,
      ledger,
      metrics,
      config,
      clock,
      { startable: async (rows) => rows },
      late,
    );
  }

  beforeEach(() => {
    log = [];
    tokenIsCurrent = true;
    deadlocks = 0;
    commitAnswerLost = 0;
    stored = null;
    endedAttempts = [];
    row = Object.assign(new JobInstance(), {
      id: 'i-1',
      status: S.DISPATCHED,
      nodeId: 'n-1',
      attempt: 1,
      maxAttempts: 2,
      fencingToken: 0,
      handler: 'h',
      jobId: null,
      maxConcurrency: 0,
      timeoutMs: 60_000,
      retryBackoffMs: 500,
      retryBackoffKind: BackoffKind.FIXED,
      params: {},
      requestId: 'r',
      traceId: 't',
    });
  });

  const finishing = () => log.slice(log.indexOf('claim') + 1);

  it('should claim outside a transaction, then write SUCCESS and the attempt row in one transaction', async () => {
    outcome = async () => ({ ok: true });
    await runner().run('i-1', 'n-1', new AbortController().signal);
    expect(log[0]).toBe('claim');
    expect(endedAttempts).toEqual([
      expect.objectContaining({ instanceId: 'i-1', attempt: 1, nodeId: 'n-1', fencingToken: 1, startedAt: NOW }),
    ]);
    expect(finishing()).toEqual([
      'begin',
      'RUNNING->SUCCESS token 1 in tx',
      'attempt 1 SUCCESS in tx',
      'callback i-1 in tx',
      'commit',
      'metric',
    ]);
  });

  it(
    'should move a failed attempt to its retry and close it in one ' + 'transaction, then put it on the delay queue',
    async () => {
      outcome = async () => {
        throw new Error('boom');
      };
      await runner().run('i-1', 'n-1', new AbortController().signal);
      expect(finishing()).toEqual([
        'begin',
        'RUNNING->PENDING attempt 2 token 1 in tx',
        'attempt 1 FAILED in tx',
        'commit',
        'metric',
        'delay i-1 +500',
      ]);
    },
  );

  it(
    'should fail for good, attempts left or not, a JobFailure that ' + 'is not retryable (and still retry one that is)',
    async () => {
      outcome = async () => {
        throw new JobFailure('egress refused: 127.0.0.1:6379 is loopback', { kept: 1 }, { retryable: false });
      };
      await runner().run('i-1', 'n-1', new AbortController().signal);
      expect(finishing()).toEqual([
        'begin',
        'RUNNING->FAILED token 1 in tx',
        'attempt 1 FAILED in tx',
        'callback i-1 in tx',
        'commit',
        'metric',
      ]);
      expect([stored?.error, stored?.result]).toEqual([
        'JobFailure: egress refused: 127.0.0.1:6379 is loopback',
        { kept: 1 },
      ]);
      log = [];
      stored = null;
      outcome = async () => {
        throw new JobFailure('HTTP 503');
      };
      await runner().run('i-1', 'n-1', new AbortController().signal);
      expect(finishing()).toEqual([
        'begin',
        'RUNNING->PENDING attempt 2 token 1 in tx',
        'attempt 1 FAILED in tx',
        'commit',
        'metric',
        'delay i-1 +500',
      ]);
    },
  );

  it('should write nothing more when the token is stale (the lease was taken away)', async () => {
    outcome = async () => ({ ok: true });
    tokenIsCurrent = false;
    await runner().run('i-1', 'n-1', new AbortController().signal);
    expect(finishing()).toEqual(['begin', 'RUNNING->SUCCESS token 1 in tx lost', 'commit']);
  });

  it('should write the SUCCESS of attempts that end together in one transaction', async () => {
    let release: () => void = () => undefined;
    const gate = new Promise<void>((r) => (release = r));
    let calls = 0;
    outcome = async () => {
      if (++calls === 1) return { first: true }; // ends at once: its transaction opens alone
      await gate;
      return { ok: true };
    };
    const sut = runner();
    const ended: string[] = [];
    const done = sut.runMany(['i-1', 'i-2', 'i-3'], 'n-1', new AbortController().signal, {
      handlerDone: () => undefined,
      ended: (id) => ended.push(id),
    });
    // Release the others once the first one's group has committed (the claim commits none) — not after a
    // fixed sleep, which a loaded CI machine outran (all three then ended in one group).
    while (log.filter((l) => l === 'commit').length < 1) await new Promise((r) => setTimeout(r, 1));
    release();
    await done;
    expect(log.filter((l) => l === 'claim')).toHaveLength(1);
    expect(finishing()).toEqual([
      'begin',
      'RUNNING->SUCCESS token 1 in tx',
      'attempt 1 SUCCESS in tx',
      'callback i-1 in tx',
      'commit',
      'metric',
      'begin',
      'RUNNING->SUCCESS token 1 in tx',
      'RUNNING->SUCCESS token 1 in tx',
      'attempt 1 SUCCESS in tx',
      'attempt 1 SUCCESS in tx',
      'callback i-2,i-3 in tx',
      'commit',
      'metric',
      'metric',
    ]);
    expect(ended.sort()).toEqual(['i-1', 'i-2', 'i-3']);
  });

  it('should run the finishing transaction again when MySQL picked it as a deadlock victim', async () => {
    outcome = async () => ({ ok: true });
    deadlocks = 2;
    await runner().run('i-1', 'n-1', new AbortController().signal);
    expect(finishing()).toEqual([
      'begin',
      'deadlock',
      'begin',
      'deadlock',
      'begin',
      'RUNNING->SUCCESS token 1 in tx',
      'attempt 1 SUCCESS in tx',
      'callback i-1 in tx',
      'commit',
      'metric',
    ]);
  });

  it('should free the worker slot when the handler ends, before the finishing write commits', async () => {
    outcome = async () => ({ ok: true });
    const events: string[] = [];
    const sut = runner();
    await sut.runMany(['i-1'], 'n-1', new AbortController().signal, {
      handlerDone: (id) => events.push(`slot free ${id} (${log.filter((l) => l === 'commit').length} commits)`),
      ended: (id) => events.push(`ended ${id} (${log.filter((l) => l === 'commit').length} commits)`),
    });
    // the finishing write's commit (the only one: the claim is one statement) comes after the slot was freed
    expect(events).toEqual(['slot free i-1 (0 commits)', 'ended i-1 (1 commits)']);
  });

  it('should free the slot and end at once an id that was not claimable', async () => {
    const events: string[] = [];
    const sut = runner();
    row.status = S.RUNNING; // taken by someone else meanwhile
    await sut.runMany(['i-1'], 'n-1', new AbortController().signal, {
      handlerDone: (id) => events.push(`slot ${id}`),
      ended: (id) => events.push(`ended ${id}`),
    });
    expect(events).toEqual(['slot i-1', 'ended i-1']);
    expect(log).not.toContain('claim');
  });

  it(
    'should know its own retry write when the commit went through but ' +
      'its answer was lost, and still schedule the retry',
    async () => {
      outcome = async () => {
        throw new Error('boom');
      };
      commitAnswerLost = 1;
      await runner().run('i-1', 'n-1', new AbortController().signal);
      expect(finishing()).toEqual([
        'begin',
        'RUNNING->PENDING attempt 2 token 1 in tx',
        'attempt 1 FAILED in tx',
        'commit',
        'connection lost after commit',
        'begin',
        'RUNNING->PENDING attempt 2 token 1 in tx lost',
        'attempt 1 FAILED in tx',
        'commit',
        'metric',
        'delay i-1 +500',
      ]);
    },
  );
});
