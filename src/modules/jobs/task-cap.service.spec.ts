import { clockAt } from '../../../test/fakes/fake-clock.js';
import type { AppConfig } from '../../config/index.js';
import type { InstanceReads } from '../metadata/index.js';
import { Scope } from '../metadata/index.js';
import { TaskCapService } from './task-cap.service.js';

/**
 * The unfinished-task cap without a COUNT per submit (README "Tenancy and scopes"): the app's count is read at
 * most once a second per process, and what this process admitted since is added to it.
 */
describe('TaskCapService', () => {
  let now: number;
  let unfinished: number;
  let reads: number;
  let release: (() => void) | undefined;

  function service(cap = 10): TaskCapService {
    const instances = {
      countUnfinishedOfApp: async () => {
        reads++;
        if (release === undefined) return unfinished;
        await new Promise<void>((r) => (release = r));
        return unfinished;
      },
    } as unknown as InstanceReads;
    return new TaskCapService(
      instances,
      { caps: { maxJobsPerApp: 0, maxUnfinishedTasksPerApp: cap } } as AppConfig,
      clockAt(() => now),
    );
  }
  const caller = (maxUnfinishedTasks: number | null = null) => ({
    appId: 'app-1',
    scopes: new Set([Scope.TASKS_WRITE]),
    maxUnfinishedTasks,
  });

  beforeEach(() => {
    now = 1_000_000;
    unfinished = 0;
    reads = 0;
    release = undefined;
  });

  it('should read the count at most once a second, and count its own admissions in between', async () => {
    const cap = service(10);
    for (let i = 0; i < 10; i++) await cap.admit(caller(), 1);
    await expect(cap.admit(caller(), 1)).rejects.toMatchObject({ code: 'TOO_MANY_UNFINISHED', retryAfterSeconds: 1 });
    expect(reads).toBe(1);
    unfinished = 4; // six finished meanwhile
    now += 999;
    await expect(cap.admit(caller(), 1)).rejects.toThrow(/has 10 unfinished/);
    now += 1;
    await cap.admit(caller(), 6);
    expect(reads).toBe(2);
    await expect(cap.admit(caller(), 1)).rejects.toThrow(/has 10 unfinished/);
  });

  it(
    'should refuse a whole batch that would pass the cap, ' +
      "and take the client's own cap (0 = none, no read at all)",
    async () => {
      unfinished = 8;
      const cap = service(10);
      await expect(cap.admit(caller(), 3)).rejects.toThrow(/these 3 tasks/);
      await cap.admit(caller(), 2);
      await cap.admit(caller(20), 5);
      const before = reads;
      await cap.admit(caller(0), 1_000_000);
      expect(reads).toBe(before);
    },
  );

  it(
    'should share one read between submits arriving while it runs, ' + 'and keep their admissions on top of it',
    async () => {
      release = () => undefined;
      const cap = service(3);
      const waiting = [cap.admit(caller(), 1), cap.admit(caller(), 1)];
      await new Promise((r) => setImmediate(r));
      expect(reads).toBe(1);
      release();
      await Promise.all(waiting);
      await cap.admit(caller(), 1);
      await expect(cap.admit(caller(), 1)).rejects.toThrow(/has 3 unfinished/);
    },
  );

  it("should refuse a dry run's check as admit would, and count nothing for one that passes", async () => {
    unfinished = 8;
    const cap = service(10);
    await expect(cap.check(caller(), 3, 'fire instance')).rejects.toThrow(/these 3 fire instances/);
    for (let i = 0; i < 5; i++) await cap.check(caller(), 2);
    await cap.admit(caller(), 2);
    await expect(cap.admit(caller(), 1)).rejects.toThrow(/has 10 unfinished/);
  });
});
