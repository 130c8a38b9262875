import type { AppConfig } from '../../config/index.js';
import {
  type JobDefinition,
  type JobDefinitionRepository,
  JobInstanceStatus as S,
  TriggerType,
} from '../metadata/index.js';
import { FixedDelayNextFire } from './fixed-delay-next-fire.js';

const NOW = 1_800_000_000_000;

/** FIXED_DELAY's next fire is counted from the instance's final finish (the executor's AttemptEndedHook). */
describe('FixedDelayNextFire', () => {
  let def: Partial<JobDefinition> | null;
  let set: Array<[string, number | null, number]>;
  let sut: FixedDelayNextFire;

  beforeEach(() => {
    def = { id: 'j-1', enabled: true, triggerType: TriggerType.FIXED_DELAY, triggerExpr: '60000', nextFireTime: null };
    set = [];
    const jobs = {
      findById: async () => def,
      setNextFire: async (id: string, next: number | null, now: number) => void set.push([id, next, now]),
    } as unknown as JobDefinitionRepository;
    sut = new FixedDelayNextFire(jobs, { namespace: 'ns' } as AppConfig);
  });

  const ended = (final: boolean, jobId: string | null = 'j-1') =>
    sut.attemptEnded({ instanceId: 'i-1', jobId, status: final ? S.SUCCESS : S.PENDING, final, at: NOW });

  it('should set the next fire delay ms after a final finish', async () => {
    await ended(true);
    expect(set).toEqual([['j-1', NOW + 60_000, NOW]]);
  });

  it('should set nothing for a retry, an API task, another type, a disabled job or one with a next fire', async () => {
    await ended(false);
    await ended(true, null);
    for (const other of [{ triggerType: TriggerType.FIXED_RATE }, { enabled: false }, { nextFireTime: NOW + 5 }]) {
      const base = { id: 'j-1', enabled: true, triggerType: TriggerType.FIXED_DELAY, triggerExpr: '60000' };
      def = { ...base, nextFireTime: null, ...other };
      await ended(true);
    }
    expect(set).toEqual([]);
  });
});
