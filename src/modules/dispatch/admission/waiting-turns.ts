import { Inject, Injectable } from '@nestjs/common';
import { CLOCK, type Clock } from '../../../common/index.js';
import {
  AdmissionInstances,
  InstanceTransitions,
  JobDefinitionRepository,
  JobInstance,
  JobInstanceStatus as S,
  TriggerSource,
} from '../../metadata/index.js';

/** The fires of a paused job that are still released: those someone asked for (trigger-now, backfill). */
const ASKED_FOR = [TriggerSource.MANUAL, TriggerSource.BACKFILL] as const;

/** What gates a job's WAITING instances: its QUEUE overlap and its maxConcurrency (0 = no limit). */
export interface TurnRule {
  queue: boolean;
  limit: number;
}

/** The rule under the job's settings as they are now; a deleted job keeps what `waiting` was made with. */
export function turnRule(
  job: { overlapPolicy: string; maxConcurrency: number } | null,
  waiting: JobInstance,
): TurnRule {
  if (!job) return { queue: waiting.maxConcurrency <= 0, limit: waiting.maxConcurrency };
  return { queue: job.overlapPolicy === 'QUEUE', limit: job.maxConcurrency };
}

/** Promotion of WAITING instances (docs/admission.md): a retry in its backoff keeps a QUEUE turn, not a slot. */
@Injectable()
export class WaitingTurns {
  constructor(
    private readonly instances: AdmissionInstances,
    private readonly transitions: InstanceTransitions,
    private readonly jobs: JobDefinitionRepository,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  /** Promotes job `jobId`'s oldest WAITING instance at `now` if there is room (a paused job's: asked for only). */
  async promoteNext(jobId: string, now: number): Promise<JobInstance | null> {
    const job = await this.jobs.findAdmission(jobId);
    const next = await this.instances.findOldestWaiting(jobId, job?.enabled === false ? ASKED_FOR : undefined);
    if (!next) return null;
    const rule = turnRule(job, next);
    if (rule.queue || rule.limit > 0) {
      // Due as of the count, not of `now`: a row another promoter moved after `now` was read must count too.
      const active = rule.queue
        ? await this.instances.countOfJob(jobId, [S.PENDING, S.DISPATCHED, S.RUNNING], null, now)
        : await this.instances.countOfJob(jobId, [S.DISPATCHED, S.RUNNING], Math.max(now, this.clock.now()), now);
      if (active >= Math.max(1, rule.limit)) return null;
    }
    const patch = { dueAt: now, error: null, maxConcurrency: rule.limit };
    const won = await this.transitions.transition(next.id, S.WAITING, S.PENDING, { attempt: next.attempt }, patch, now);
    return won ? { ...next, status: S.PENDING, ...patch } : null;
  }
}
