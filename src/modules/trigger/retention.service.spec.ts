import { FakeClock } from '../../../test/fakes/fake-clock.js';
import type { AppConfig } from '../../config/index.js';
import type {
  CallbackDeliveryRepository,
  IdempotencyKeyRepository,
  InstanceRetention,
  JobAttemptRepository,
  JobLogRepository,
} from '../metadata/index.js';
import { MetricsService } from '../observability/index.js';
import { RetentionService } from './retention.service.js';

const T0 = Date.UTC(2026, 0, 1);
const BATCH = 10;

/**
 * One retention pass over stub statements: the kinds in order, a failing statement ends its kind only, a kind
 * with age 0 is kept, and the pass stops between batches once its lead is lost. When passes run is the leader's
 * (`LeaderDuties`' retention duty, leader/leader-duties.service.spec.ts).
 */
describe(RetentionService.name, () => {
  let clock: FakeClock;
  let calls: string[];
  let failNext: boolean;
  /** Finished instances left to find, in batches of BATCH. */
  let finishedLeft: number;
  let onBatch: () => void;

  function service(finishedMs: number, logsMs: number, idempotencyKeyTtlMs?: number): RetentionService {
    clock = new FakeClock(T0);
    calls = [];
    failNext = false;
    finishedLeft = 0;
    onBatch = () => undefined;
    const instances = {
      finishedBefore: async (ns: string, before: number) => {
        calls.push(`finished ${ns} ${T0 - before}`);
        if (failNext) {
          failNext = false;
          throw new Error('lock wait timeout');
        }
        const n = Math.min(BATCH, finishedLeft);
        finishedLeft -= n;
        onBatch();
        return Array.from({ length: n }, (_, i) => `i-${i}`);
      },
      removeFinished: async (ids: string[]) => ids.length,
    } as unknown as InstanceRetention;
    const deliveries = {
      removeSettled: async () => 0,
      instancesWithDelivery: async () => new Set<string>(),
    } as unknown as CallbackDeliveryRepository;
    const logs = {
      idsBefore: async (ns: string, before: number) => (calls.push(`logs ${ns} ${T0 - before}`), []),
      removeOfInstances: async () => 0,
    } as unknown as JobLogRepository;
    const attempts = { removeOfInstances: async () => 0 } as unknown as JobAttemptRepository;
    const keys = {
      expiredBefore: async (ns: string, before: number) => (calls.push(`keys ${ns} ${T0 - before}`), []),
    } as unknown as IdempotencyKeyRepository;
    const retention = { finishedMs, logsMs, intervalMs: 1000, batch: BATCH };
    const config = { namespace: 'ns', retention, idempotencyKeyTtlMs } as AppConfig;
    return new RetentionService(instances, deliveries, logs, attempts, keys, new MetricsService(), config, clock);
  }

  it('should remove old finished instances, then old log lines, each by its age', async () => {
    await service(30, 7).pass();
    expect(calls).toEqual(['finished ns 30', 'logs ns 7']);
  });

  it('should go on with the log step after a failing statement', async () => {
    const sut = service(30, 7);
    failNext = true;
    await sut.pass();
    expect(calls.map((c) => c.split(' ')[0])).toEqual(['finished', 'logs']);
  });

  it('should keep a kind whose age is 0, and be off when both are 0 and no key expires', async () => {
    const sut = service(0, 7);
    await sut.pass();
    expect(calls.map((c) => c.split(' ')[0])).toEqual(['logs']);
    expect(sut.enabled).toBe(true);
    expect(service(0, 0).enabled).toBe(false);
  });

  it('should remove expired Idempotency-Keys (those expired by now) even when both ages are 0', async () => {
    const sut = service(0, 0, 86_400_000);
    expect(sut.enabled).toBe(true);
    await sut.pass();
    expect(calls).toEqual(['keys ns 0']); // before now itself
  });

  it('should stop between batches once its lead is lost, and go on through every batch while it holds', async () => {
    const sut = service(30, 0);
    finishedLeft = 5 * BATCH;
    const lead = new AbortController();
    onBatch = () => finishedLeft === 3 * BATCH && lead.abort();
    await sut.pass(lead.signal);
    expect(calls.length).toBe(2);
    await sut.pass(new AbortController().signal);
    expect(calls.length).toBe(2 + 4); // the 3 batches left, and the empty read that ends the kind
  });

  it('should stop a pass that ran half the interval (its budget), the next pass going on', async () => {
    const sut = service(30, 0);
    finishedLeft = 5 * BATCH;
    onBatch = () => clock.setNow(clock.now() + 200);
    await sut.pass();
    expect(calls.length).toBe(3); // batches read at +200, +400 and +600 ms: past the 500 ms budget
  });
});
