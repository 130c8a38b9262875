import type { Clock } from '../../../common/index.js';
import type { AppConfig } from '../../../config/index.js';
import type { Caller } from '../../jobs/index.js';
import { type JobDefinitionRepository, Scope } from '../../metadata/index.js';
import { ScheduleLoadService } from './schedule-load.service.js';

const MINUTE = 60_000;
const T0 = Date.parse('2026-12-05T10:00:00Z');

/** A repository answering one hourly job of the app asked, counting its reads; `fail` makes the next read throw. */
function repository() {
  const reads: Array<string | null> = [];
  let fail = false;
  const repo = {
    schedulesOf: async (_ns: string, appId: string | null) => {
      reads.push(appId);
      if (fail) {
        fail = false;
        throw new Error('database gone');
      }
      const next = T0 + 30 * MINUTE;
      const job = { id: 'j1', appId: appId ?? 'x', code: 'hourly', triggerType: 'CRON', timeZone: 'UTC' };
      return [{ ...job, triggerExpr: '0 30 * * * *', nextFireTime: next }];
    },
  };
  return { repo: repo as unknown as JobDefinitionRepository, reads, failNext: () => (fail = true) };
}

const caller = (appId: string, ...scopes: Scope[]): Caller => ({
  appId,
  scopes: new Set(scopes.length ? scopes : [Scope.JOBS_READ]),
  maxUnfinishedTasks: null,
});

describe('ScheduleLoadService', () => {
  let now: number;
  const clock: Clock = { now: () => now } as Clock;
  const config = { namespace: 'ns' } as AppConfig;
  beforeEach(() => (now = T0 + 5_000));

  it('should plan once per minute bucket and app, and answer every query of that minute from the plan', async () => {
    const { repo, reads } = repository();
    const service = new ScheduleLoadService(repo, config, clock);
    const [a, b] = await Promise.all([service.load(caller('a'), undefined), service.load(caller('a'), undefined)]);
    expect(a).toEqual(b);
    now += 40_000; // same minute
    await service.load(caller('a'), undefined);
    expect(reads).toEqual(['a']);
    await service.load(caller('b'), undefined); // another app: its own plan
    // Another query, the same minute: read from the same plan (varying hours or herd cannot make it plan again).
    for (let herd = 2; herd < 40; herd++) await service.load(caller('a'), undefined, 1 + (herd % 48), herd);
    expect((await service.load(caller('a'), undefined, 2, 2)).buckets).toHaveLength(120);
    now += 20_000; // the next minute
    const later = await service.load(caller('a'), undefined);
    expect(reads).toEqual(['a', 'b', 'a']);
    expect(later.from).toBe('2026-12-05T10:01:00.000Z');
    expect(later.buckets[29]).toBe(1); // 10:30 is the 30th minute from 10:01
  });

  it("should keep an admin's namespace-wide answer apart from one app's", async () => {
    const { repo, reads } = repository();
    const service = new ScheduleLoadService(repo, config, clock);
    await service.load(caller('root', Scope.ADMIN), undefined);
    await service.load(caller('root', Scope.ADMIN), 'a');
    await service.load(caller('a'), undefined);
    expect(reads).toEqual([null, 'a']);
  });

  it('should not keep a failed read: the next ask reads again', async () => {
    const { repo, reads, failNext } = repository();
    const service = new ScheduleLoadService(repo, config, clock);
    failNext();
    await expect(service.load(caller('a'), undefined)).rejects.toThrow('database gone');
    await service.load(caller('a'), undefined);
    expect(reads).toEqual(['a', 'a']);
  });
});
