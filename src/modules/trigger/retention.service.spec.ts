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
import type { LeaderElectionService } from './leader-election.service.js';
import { RetentionService } from './retention.service.js';

const T0 = Date.UTC(2026, 0, 1);
const flush = () => new Promise((r) => setImmediate(r));

/** The retention loop's schedule: leader only, every interval, a failing statement does not stop it. */
describe('RetentionService loop', () => {
  let clock: FakeClock;
  let leaderFns: Array<(leader: boolean) => void>;
  let calls: string[];
  let failNext: boolean;

  function service(finishedMs: number, logsMs: number, idempotencyKeyTtlMs?: number): RetentionService {
    clock = new FakeClock(T0);
    leaderFns = [];
    calls = [];
    failNext = false;
    const leader = {
      isLeader: false,
      onChange: (fn: (l: boolean) => void) => leaderFns.push(fn),
    } as unknown as LeaderElectionService;
    const instances = {
      finishedBefore: async (ns: string, before: number) => {
        calls.push(`finished ${ns} ${T0 - before}`);
        if (failNext) {
          failNext = false;
          throw new Error('lock wait timeout');
        }
        return [];
      },
    } as unknown as InstanceRetention;
    const logs = {
      idsBefore: async (ns: string, before: number) => (calls.push(`logs ${ns} ${T0 - before}`), []),
    } as unknown as JobLogRepository;
    const keys = {
      expiredBefore: async (ns: string, before: number) => (calls.push(`keys ${ns} ${T0 - before}`), []),
    } as unknown as IdempotencyKeyRepository;
    const retention = { finishedMs, logsMs, intervalMs: 1000, batch: 10 };
    const config = { namespace: 'ns', retention, idempotencyKeyTtlMs } as AppConfig;
    const [deliveries, attempts] = [{} as CallbackDeliveryRepository, {} as JobAttemptRepository];
    const svc = new RetentionService(
      leader,
      instances,
      deliveries,
      logs,
      attempts,
      keys,
      new MetricsService(),
      config,
      clock,
    );
    svc.onModuleInit();
    return svc;
  }

  const lead = (on: boolean) => leaderFns.forEach((fn) => fn(on));

  it('should run a pass every interval while leader only, and none once leadership is lost', async () => {
    service(30, 7);
    clock.advanceTo(T0 + 5000);
    expect(calls).toEqual([]); // not leader: no timer at all
    lead(true);
    clock.advanceTo(T0 + 5000 + 1000);
    await flush();
    clock.advanceTo(T0 + 5000 + 2000);
    await flush();
    expect(calls.length).toBe(4);
    expect(calls[0]).toMatch(/^finished ns /);
    expect(calls[1]).toMatch(/^logs ns /);
    lead(false);
    clock.advanceTo(T0 + 60_000);
    await flush();
    expect(calls.length).toBe(4);
    expect(clock.pendingCount).toBe(0);
  });

  it('should go on with the log step and the next pass after a failing statement', async () => {
    service(30, 7);
    lead(true);
    failNext = true;
    clock.advanceTo(T0 + 1000);
    await flush();
    clock.advanceTo(T0 + 2000);
    await flush();
    expect(calls.map((c) => c.split(' ')[0])).toEqual(['finished', 'logs', 'finished', 'logs']);
  });

  it('should keep a kind whose age is 0, and run no loop when both are 0', async () => {
    service(0, 7);
    lead(true);
    clock.advanceTo(T0 + 1000);
    await flush();
    expect(calls.map((c) => c.split(' ')[0])).toEqual(['logs']);
    service(0, 0);
    lead(true);
    expect(clock.pendingCount).toBe(0);
  });

  it('should remove expired Idempotency-Keys (those expired by now) even when both ages are 0', async () => {
    service(0, 0, 86_400_000);
    lead(true);
    clock.advanceTo(T0 + 1000);
    await flush();
    expect(calls).toEqual(['keys ns -1000']);
  });
});
