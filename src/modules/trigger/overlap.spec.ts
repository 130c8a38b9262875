import { jest } from '@jest/globals';
import { Logger } from '@nestjs/common';
import { JobDefinition, JobInstance, JobInstanceStatus as S, OverlapPolicy } from '../metadata/index.js';
import { MetricsService } from '../observability/index.js';
import { decideOverlap } from './overlap.js';
import { QUEUE_FULL_WARN_EVERY_MS, QueueFullWatch } from './queue-full.js';

const T0 = Date.UTC(2026, 11, 5, 12, 0, 0);

function job(over: Partial<JobDefinition> = {}): JobDefinition {
  return Object.assign(new JobDefinition(), { id: 'j1', overlapPolicy: OverlapPolicy.QUEUE, queueLimit: 2, ...over });
}

function row(fireTime: number, status: S, shardIndex = 0): JobInstance {
  return Object.assign(new JobInstance(), {
    id: `i-${fireTime}-${shardIndex}`,
    jobId: 'j1',
    jobCode: 'slow',
    fireTime,
    shardIndex,
    status,
    leaseUntil: null,
    error: null,
  });
}

describe('decideOverlap under QUEUE with queueLimit', () => {
  it('queues fires until queueLimit wait, then records each further one CANCELLED with OVERLAP_QUEUE_FULL', () => {
    const busy = [row(T0, S.RUNNING)];
    const statuses = [1, 2, 3, 4].map((k) => {
      const fresh = row(T0 + k * 1000, S.PENDING);
      decideOverlap(job(), busy, fresh);
      return [fresh.status, fresh.error];
    });
    expect(statuses).toEqual([
      [S.WAITING, null],
      [S.WAITING, null],
      [S.CANCELLED, 'OVERLAP_QUEUE_FULL: 2 fires already queued (queueLimit 2); not run'],
      [S.CANCELLED, 'OVERLAP_QUEUE_FULL: 2 fires already queued (queueLimit 2); not run'],
    ]);
  });

  it('counts fires, not shard rows, and rows queued before this pass', () => {
    const busy = [row(T0, S.RUNNING), row(T0 + 1000, S.WAITING, 0), row(T0 + 1000, S.WAITING, 1)];
    const second = row(T0 + 2000, S.PENDING);
    decideOverlap(job(), busy, second);
    expect(second.status).toBe(S.WAITING);
    const third = row(T0 + 3000, S.PENDING);
    decideOverlap(job(), busy, third);
    expect(third.status).toBe(S.CANCELLED);
  });

  it('ignores queueLimit under another policy, and runs a fire at once when nothing is unfinished', () => {
    const fresh = row(T0 + 1000, S.PENDING);
    decideOverlap(job({ overlapPolicy: OverlapPolicy.ALLOW, queueLimit: 1 }), [row(T0, S.WAITING)], fresh);
    expect(fresh.status).toBe(S.PENDING);
    const alone = row(T0 + 2000, S.PENDING);
    decideOverlap(job({ queueLimit: 1 }), [], alone);
    expect(alone.status).toBe(S.PENDING);
  });
});

describe('QueueFullWatch', () => {
  it('counts every skipped fire and warns at most once a minute per job, naming the skips between', async () => {
    const metrics = new MetricsService();
    const warn = jest.spyOn(Logger.prototype, 'warn').mockImplementation(() => undefined);
    const watch = new QueueFullWatch(metrics);
    const full = (t: number, shard = 0) =>
      Object.assign(row(t, S.CANCELLED, shard), { error: 'OVERLAP_QUEUE_FULL: 2 fires already queued' });
    watch.record([full(1), full(1, 1), full(2)], T0);
    // Steady overload: a queued fire between skips (the queue freed a slot) does not start a new line.
    watch.record([row(3, S.WAITING)], T0 + 1_000);
    watch.record([full(4)], T0 + 2_000);
    watch.record([full(5)], T0 + QUEUE_FULL_WARN_EVERY_MS);
    const [value] = (await metrics.queueFull.get()).values;
    expect(value.value).toBe(4);
    expect(warn).toHaveBeenCalledTimes(2);
    expect(String(warn.mock.calls[0][0])).toMatch(/^job slow: fire of .* not run, its QUEUE is full/);
    expect(String(warn.mock.calls[1][0])).toMatch(/; 2 more skipped since the last line;/);
    warn.mockRestore();
  });
});
